"""The drawing of a :class:`nana.Board` as SVG, from the game's board view alone.

The view is the explorer's (``nana_front::Board``, given by the game's ``Explorable``): squares
in reading order with their pieces (owner, label, a kind mark, the dots of their steps), both
hands, the side to move. Nothing here names a game: a Nana cube shows its face and its cube's
mark, a Dobutsu animal its letter, its name and the dots of where it steps, because their views
say so, as the explorer page draws them. The colours are the page's.
"""

from __future__ import annotations

from typing import Any, Optional
from xml.sax.saxutils import escape, quoteattr

SQUARE = 80
PIECE = 60
HAND_PIECE = 36
SLOT = 44
MARGIN = 10
WHO = 64
HAND_ROW = 46
CAPTION = 24
FONT = "system-ui, sans-serif"
SVG = "http://www.w3.org/2000/svg"

WOOD = "#e8c98f"
LINE = "#7a5a2e"
LAST = "#f2d04b"
# Per player (the first, the second): the face, the border, the writing, the dots.
FACE = ("#fbf1dc", "#eef3fb")
BORDER = ("#111111", "#3b5b8a")
INK = ("#2b2118", "#26446f")
DOT = ("#a3262a", "#26446f")


def _attrs(**attrs: Any) -> str:
    return "".join(f" {k.rstrip('_').replace('_', '-')}={quoteattr(str(v))}" for k, v in attrs.items() if v is not None)


def _el(tag: str, **attrs: Any) -> str:
    """An empty element; numbers are written short (``12``, ``12.5``)."""
    return f"<{tag}{_attrs(**{k: f'{v:g}' if isinstance(v, float) else v for k, v in attrs.items()})}/>"


def _text(x: float, y: float, text: str, **attrs: Any) -> str:
    return f"<text{_attrs(x=f'{x:g}', y=f'{y:g}', **attrs)}>{escape(text)}</text>"


def _piece(piece: dict[str, Any], player: int, x: float, y: float, turned: bool, square: str) -> str:
    """One piece on the board: a ``<g class="piece">`` at the top left corner ``(x, y)`` of its
    square, turned round where its owner sits at the top."""
    size, inset = PIECE, (SQUARE - PIECE) / 2
    px, py = x + inset, y + inset
    cx, cy = px + size / 2, py + size / 2
    kind = f" ({piece['kind']} cube)" if piece["kind"] else ""
    steps = piece.get("steps") or []
    edge = {"fill": FACE[player], "stroke": BORDER[player], "stroke_width": 2}
    parts = [
        f"<title>{escape(piece['owner'] + ' ' + piece['name'] + kind)}</title>",
        _el("rect", x=px, y=py, width=size, height=size, rx=8, **edge),
        _text(
            cx,
            cy + (2 if steps else 9),
            piece["label"],
            class_="label",
            text_anchor="middle",
            font_size=24 if len(piece["label"]) < 3 else 18,
            font_weight=700,
            fill=INK[player],
        ),
    ]
    if piece["kind"]:
        corner = (px + size - 5, py + size - 5)
        parts.append(_text(*corner, piece["kind"], class_="kind", text_anchor="end", font_size=11, fill=LINE))
    if steps:
        parts.append(
            _text(cx, cy + 17, piece["name"], class_="name", text_anchor="middle", font_size=10, fill=LINE)
        )
        for f, r in steps:
            dx, dy = px + size * (0.5 + 0.4 * f), py + size * (0.5 - 0.4 * r)
            parts.append(_el("circle", class_="dot", cx=dx, cy=dy, r=3.5, fill=DOT[player]))
    turn = f"rotate(180 {cx:g} {cy:g})" if turned else None
    g = _attrs(class_="piece", data_square=square, data_code=piece["code"], data_owner=piece["owner"], transform=turn)
    return f"<g{g}>" + "".join(parts) + "</g>"


def _hand(hand: dict[str, Any], player: int, y: float, to_move: bool) -> str:
    """One side's hand, a row at ``y``: its owner's name (marked where it is to move) and each
    kind of piece it holds, in the same place whatever else it holds, with how many."""
    parts = [f"<g{_attrs(class_='hand', data_owner=hand['owner'])}>"]
    mid = y + HAND_ROW / 2
    if to_move:
        parts.append(_el("circle", class_="turn", cx=MARGIN + 6, cy=mid, r=5, fill=DOT[player]))
    parts.append(_text(MARGIN + 16, mid + 4, hand["owner"], font_size=13, fill="#555555"))
    for k, held in enumerate(hand["pieces"]):
        if held["count"] == 0:
            continue
        hx, hy = MARGIN + WHO + k * SLOT, mid - HAND_PIECE / 2
        parts.append(f"<g{_attrs(class_='hand-piece', data_code=held['code'], data_count=held['count'])}>")
        parts.append(f"<title>{escape(hand['owner'] + ' ' + held['name'] + ' in hand: ' + str(held['count']))}</title>")
        box = HAND_PIECE
        parts.append(_el("rect", x=hx, y=hy, width=box, height=box, rx=6, fill=FACE[player], stroke=BORDER[player]))
        label = held["label"]
        font = {"font_size": 15, "font_weight": 600, "fill": INK[player]}
        parts.append(_text(hx + box / 2, mid + 5, label, text_anchor="middle", **font))
        if held["count"] > 1:
            parts.append(_el("circle", cx=hx + box, cy=hy + box, r=8, fill="#2b2118"))
            count = str(held["count"])
            parts.append(_text(hx + box, hy + box + 4, count, text_anchor="middle", font_size=11, fill="#ffffff"))
        parts.append("</g>")
    parts.append("</g>")
    return "".join(parts)


def draw(view: dict[str, Any], *, size: Optional[int] = None, flipped: bool = False) -> str:
    """The SVG of a board view (``Position.view_json``): the second player's hand above the
    board and the first player's below it (the other way round where ``flipped``), the squares
    of the last move marked, the side to move marked at its hand and written underneath.
    ``size`` is the drawing's width in pixels (its natural width where ``None``)."""
    board = view["board"]
    columns, rows = board["columns"], board["rows"]
    hands = board["hands"]
    bottom = 1 if flipped else 0
    player = {hands[0]["owner"]: 0, hands[1]["owner"]: 1}
    width = 2 * MARGIN + max(columns * SQUARE, WHO + max(len(h["pieces"]) for h in hands) * SLOT)
    height = 2 * MARGIN + 2 * HAND_ROW + rows * SQUARE + CAPTION
    left = (width - columns * SQUARE) / 2
    top = MARGIN + HAND_ROW
    last = view.get("last_move") or {}
    marked = {last.get("from"), last.get("to")} - {None}
    frame = {"fill": WOOD, "stroke": LINE, "stroke_width": 2}
    shown = width if size is None else size
    scale = {"width": shown, "height": round(shown * height / width)}
    out = [
        f"<svg{_attrs(xmlns=SVG, viewBox=f'0 0 {width} {height}', **scale, font_family=FONT)}>",
        _el("rect", width=width, height=height, fill="#f6f3ee"),
        _hand(hands[1 - bottom], 1 - bottom, MARGIN, hands[1 - bottom]["owner"] == board["side_to_move"]),
        _el("rect", x=left - 1, y=top - 1, width=columns * SQUARE + 2, height=rows * SQUARE + 2, **frame),
    ]
    squares = board["squares"][::-1] if flipped else board["squares"]
    for i, square in enumerate(squares):
        x, y = left + (i % columns) * SQUARE, top + (i // columns) * SQUARE
        name = square["name"]
        fill = {"fill": LAST if name in marked else WOOD, "stroke": LINE}
        out.append(_el("rect", class_="square", data_square=name, x=x, y=y, width=SQUARE, height=SQUARE, **fill))
        # Above the piece, which leaves a margin of an eighth of the square.
        out.append(_text(x + 3, y + 8.5, name, class_="square-name", font_size=8.5, fill="#8a6a3a"))
        piece = square["piece"]
        if piece is not None:
            owner = player[piece["owner"]]
            out.append(_piece(piece, owner, x, y, owner != bottom, name))
    out.append(_hand(hands[bottom], bottom, top + rows * SQUARE + 2, hands[bottom]["owner"] == board["side_to_move"]))
    caption = (width / 2, height - MARGIN - 4, view["to_move"])
    out.append(_text(*caption, class_="to-move", text_anchor="middle", font_size=14, font_weight=600, fill="#222222"))
    out.append("</svg>")
    return "".join(out)
