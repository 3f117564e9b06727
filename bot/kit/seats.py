"""A seat handed over to another player, for a system whose state names seats by id and nothing else by the
same text (player ids are Discord's numbers or "builtin-N"): every key and value equal to the old id, all
through the state (its take-back chain's copy too), becomes the new id."""


def renamed(value, old: str, new: str):
    if isinstance(value, dict):
        return {(new if k == old else k): renamed(v, old, new) for k, v in value.items()}
    if isinstance(value, list):
        return [renamed(v, old, new) for v in value]
    return new if value == old else value
