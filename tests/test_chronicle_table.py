"""The local table plays a campaign: `python -m bot table --auto --chronicle FILE` plays the whole of
it (the prologue and 13 chapters) with built-in players, one `chapter_end` JSON event a chapter,
keeping the record in FILE; run again on a told campaign, it plays a game of free play; a typed
game on the same file is its next chapter."""
import io
import json

from PIL import Image

from bot import chronicle as ch
from bot.chronicle import picture
from bot.discord.chronicle import embed
from bot.games.babg import table


def events(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def test_a_whole_campaign_on_the_local_table(tmp_path, capsys):
    path = tmp_path / "chronicle.json"
    assert table.main(["--auto", "--chronicle", str(path), "--players", "4", "--seed", "7", "--events", "json"]) == 0
    ended = [e for e in events(capsys.readouterr().out) if e["kind"] == "chapter_end"]
    assert [e["chapter"] for e in ended] == list(range(14))
    assert len({e["haunt"] for e in ended}) == 14, "no haunt twice"
    for e in ended:
        assert e["winner"] in ("heroes", "traitor", None) and e["haunt_title"]
        assert len(e["seats"]) == (3 if e["chapter"] % 4 == 3 else 4)  # a family sits out each fourth chapter
        for s in e["seats"]:
            assert s["family"] in ("blue", "green", "red", "yellow") and s["member"]["first_name"]
            assert s["member"]["age"] and s["fate"] and isinstance(s["died"], bool)
    record = json.loads(path.read_text())
    assert [c["number"] for c in record["chapters"]] == list(range(14)) and ch.next_chapter(record) == 14
    # a survivor comes back older: some family sent the same member to two chapters running
    assert any(len(m["chapters"]) > 1 for f in record["families"].values() for m in f["members"])
    assert all(h["name"] for f in record["families"].values() for h in f["heirlooms"])
    # /chronicle status for the whole campaign: an embed within Discord's limits, an 800 px timeline
    e = embed(record, "#chronicle")
    assert len(e.fields) <= 25 and all(len(f.value) <= 1024 for f in e.fields)
    assert len(e.title) + len(e.description) + sum(len(f.name) + len(f.value) for f in e.fields) <= 6000
    assert all(f"haunt {c['haunt']}" in "".join(f.value for f in e.fields) for c in record["chapters"])
    assert Image.open(io.BytesIO(picture.render(record))).size[0] == picture.WIDTH == 800

    # told: another run plays one game of free play
    assert table.main(["--auto", "--chronicle", str(path), "--players", "3", "--seed", "8", "--events", "json"]) == 0
    [free] = [e for e in events(capsys.readouterr().out) if e["kind"] == "chapter_end"]
    assert free["chapter"] == 14 and free["title"] == "free play game 1"
    assert free["haunt"] not in {e["haunt"] for e in ended}


def test_a_typed_game_on_the_table_is_the_next_chapter(tmp_path, capsys, monkeypatch):
    path = tmp_path / "ours.json"
    script = tmp_path / "script.txt"
    script.write_text("join torskar as Ann\njoin lia as Bo\njoin gretchen as Cy\nas Ann family purple House Anvil\n"
                      "as Ann member Seraphine 31\nchronicle\nstart\n")
    assert table.main([str(script), "--chronicle", str(path), "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "This game is the prologue of the chronicle" in out
    assert "Ann plays the Blue family" in out  # taken on joining, then changed before the start
    assert "You play the House Anvil family" in out
    assert "Ann plays Seraphine, 31, of House Anvil" in out  # announced at the start
    record = json.loads(path.read_text())
    assert record["families"]["purple"]["player"] == "ann" and record["families"]["blue"]["player"] is None
    assert record["chapters"] == []  # the chapter is not over yet
