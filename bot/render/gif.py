"""An animated GIF from pictures drawn in one palette (a replay: one frame per turn). The frames may differ in
size (a map grows as it is explored): each is set on a canvas of the largest size, filled with the palette's
`background` index, so nothing needs quantizing again."""
import io

from PIL import Image


def animate(frames: list, frame_ms: int = 900, background: int = 0) -> bytes:
    if not frames:
        raise ValueError("an animation needs at least one frame")
    w = max(f.width for f in frames)
    h = max(f.height for f in frames)
    out = []
    for f in frames:
        if f.size != (w, h):
            canvas = Image.new("P", (w, h), background)
            canvas.putpalette(f.getpalette())
            canvas.paste(f, (0, 0))
            f = canvas
        out.append(f)
    buf = io.BytesIO()
    out[0].save(buf, "GIF", save_all=True, append_images=out[1:], duration=frame_ms, loop=0, disposal=1)
    return buf.getvalue()
