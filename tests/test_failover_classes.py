"""The failover bench's classes of the action log (bench/failover.py's
classify): which committed entries count as a fault (a command a person
sent, committed, whose answer never reached them) and which do not."""
import importlib.util
import pathlib
import sys

BENCH = pathlib.Path(__file__).resolve().parents[1] / "bench"
_path = list(sys.path)
_spec = importlib.util.spec_from_file_location("failover_bench", BENCH / "failover.py")
failover = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(failover)
sys.path[:] = _path  # (the bench puts bench/ first on the path; no test should import its modules by chance)

classify = failover.classify
ACK, REFUSED, KILLED, NONE = failover.ACKNOWLEDGED, failover.REFUSED, failover.KILLED, failover.NO_ANSWER
END, NORTH = ("end",), ("move", "north")


def test_a_command_answered_as_done_is_no_fault_and_an_acknowledged_one_missing_is_lost():
    classes, matched = classify([(2.0, NORTH)], [(NORTH, 1.0, ACK), (END, 3.0, ACK)], person=True)
    assert classes == ["answered"]
    assert matched == {0}  # the /end sent at 3.0 is in no entry: lost


def test_a_resend_after_no_answer_is_matched_not_the_unanswered_one_before_it():
    classes, matched = classify([(5.0, END)], [(END, 1.0, NONE), (END, 4.0, ACK)], person=True)
    assert (classes, matched) == (["answered"], {1})


def test_a_command_the_killed_process_committed_without_answering_is_no_fault():
    classes, _ = classify([(1.5, END)], [(END, 1.0, KILLED)], person=True)
    assert classes == ["done at a kill"]
    assert not any(failover.CLASSES[c][0] for c in classes)


def test_the_bots_own_seats_are_no_fault():
    classes, matched = classify([(1.0, END), (2.0, NORTH)], [], person=False)
    assert classes == ["the bot's seats"] * 2 and not matched
    assert not failover.CLASSES["the bot's seats"][0]


def test_every_kind_of_fault():
    entries = [(2.0, END), (3.0, END), (4.0, NORTH), (6.0, ("ready",))]
    sends = [(END, 1.0, REFUSED), (NORTH, 3.5, NONE)]
    classes, _ = classify(entries, sends, person=True)
    # told no yet applied; applied once more than sent; applied with no answer and no kill; never sent at all
    assert classes == ["told otherwise", "double", "unanswered", "never sent"]
    assert set(classes) == set(failover.FAULTS)


def test_an_entry_written_before_its_command_was_sent_matches_nothing():
    classes, matched = classify([(1.0, END)], [(END, 2.0, ACK)], person=True)
    assert (classes, matched) == (["double"], set())
