"""The map picture: a pure function from game state to image bytes.

    render_map(content, state, highlight=None, scale=1.0, max_bytes=None) -> PNG bytes
    render_turn(content, state, player=None, max_bytes=None) -> PNG bytes, the tiles round
        the turn for a phone (bot/games/babg/render/turn.py)
    render_replay_gif(content, states, scale=0.6) -> GIF bytes, one frame per state

No I/O and nothing about Discord. Layout helpers (`tile_box`, `door_probe`,
`token_position`) say where things are drawn, for tests and for callers that
want to point at a tile.
"""
from .draw import encode_png, fit_png, render_image, render_map, render_paletted, render_replay_gif
from .layout import compute_layout, door_probe, figure_positions, tile_box, token_position, union_bounds
from bot.render.png import COMPRESS_LEVEL, COMPRESSOR
from .turn import render_turn, render_turn_image, render_turn_paletted
from .style import metrics

__all__ = ["render_map", "render_image", "render_paletted", "render_turn", "render_turn_image", "render_turn_paletted",
           "render_replay_gif", "encode_png", "fit_png",
           "compute_layout", "tile_box", "door_probe", "token_position", "figure_positions", "union_bounds",
           "metrics", "COMPRESSOR", "COMPRESS_LEVEL"]
