"""Small words the game's sentences need right: "an Otyugh token", "1 space"."""


def a(noun: str, capital: bool = False) -> str:
    """The noun with its article: "a Cultist", "an Otyugh", "An Eye Ray" (`capital`)."""
    article = "an" if noun[:1].lower() in "aeiou" else "a"
    return f"{article.capitalize() if capital else article} {noun}"


def count(n: int, noun: str, plural: str | None = None) -> str:
    """ "1 space", "2 spaces"."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def ended(text: str, mark: str = ".") -> str:
    """The text closed by `mark` unless it already ends a sentence ("Eye Rays?" stays as it is)."""
    text = text.rstrip()
    return text if text[-1:] in ".?!…" else text + mark
