"""The words for a Baldur's Gate game's options (never the seed itself)."""


def options_line(options: dict, seeded: bool) -> str:
    """The game's options in a few words (never the seed itself)."""
    said = []
    if seeded:
        said.append("a seed of your choosing (the same game again)")
    if options.get("chosen_haunt"):
        said.append(f"haunt {options['chosen_haunt']} when the haunt begins")
    if "legacy-house-rules" in options.get("rules", []):
        said.append("house rules from Betrayal Legacy (`/rules house`)")
    if options.get("avoid_repeats"):
        said.append(f"no haunt this server has played ({len(options.get('played', []))} so far)")
    if options.get("map"):
        said.append("the map " + ("once a round" if options["map"] == "round" else "only on /map"))
    return "; ".join(said)
