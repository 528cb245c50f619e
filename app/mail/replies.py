"""A reply as mail programs write it -> the lines the player wrote (docs/play-by-email.md, "Replies").

The text comes from the plain part (quoted-printable and base64 decoded by the email package, format=flowed
joined here as RFC 3676 says, DelSp too) or, for an HTML-only reply, from the HTML part (blockquotes become
'>' lines). Of that text, the player's own lines are kept: quoted lines ('>'), the attribution above a quote
(s-nail's "ADDRESS wrote:", mutt's and Thunderbird's "On DATE, NAME wrote:", Gmail's on two lines), Outlook's
"-----Original Message-----" or underscore rule and its From:/Sent: header block with the unquoted original
below, a signature ("-- ") and a phone's "Sent from my ..." line are dropped. Top-posted, bottom-posted and
interleaved replies read alike.
"""
from __future__ import annotations

import re
from email.message import EmailMessage
from html.parser import HTMLParser

WROTE = re.compile(r"\b(wrote|writes)\s*:\s*$", re.IGNORECASE)
ORIGINAL = re.compile(r"^(-{2,}\s*Original Message\s*-{2,}|_{10,})$", re.IGNORECASE)
HEADER_BLOCK = re.compile(r"^(From|Sent|Date|To|Cc|Subject)\s*:", re.IGNORECASE)
SENT_FROM = re.compile(r"^(Sent from my |Sent from Mail for |Get Outlook for )", re.IGNORECASE)
BLOCKS = {"p", "div", "br", "tr", "li", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "table", "hr", "blockquote"}
HIDDEN = {"head", "style", "script", "title"}


def body_text(msg: EmailMessage) -> str:
    """The message's text: its plain part (format=flowed joined), else its HTML part as text."""
    part = msg.get_body(preferencelist=("plain", "html"))
    if part is None:
        raise ValueError("the message has no text part; send your orders as text")
    text = part.get_content()
    if part.get_content_subtype() == "html":
        return html_text(text)
    if part.get_param("format", "").lower() == "flowed":
        return unflow(text, part.get_param("delsp", "").lower() == "yes")
    return text


def unflow(text: str, delsp: bool = False) -> str:
    """RFC 3676: a line ending in a space continues on the next line of the same quote depth (the space dropped
    too if DelSp=yes); one leading space (space-stuffing) is removed; quoted lines come out as '> ' text."""
    out: list[tuple[int, str]] = []
    soft = False
    for raw in text.replace("\r\n", "\n").split("\n"):
        depth = len(raw) - len(raw.lstrip(">"))
        line = raw[depth:]
        if line.startswith(" "):
            line = line[1:]
        joins = soft and out and out[-1][0] == depth
        soft = line.endswith(" ") and line != "-- "
        if soft and delsp:
            line = line[:-1]
        if joins:
            out[-1] = (depth, out[-1][1] + line)
        else:
            out.append((depth, line))
    return "\n".join(">" * d + " " + t if d else t for d, t in out)


class _HtmlText(HTMLParser):
    """HTML -> text: block elements end lines, blockquotes quote their lines with '>', head/style/script drop."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = [""]
        self.depth = 0
        self.hidden = 0

    def _newline(self) -> None:
        if self.lines[-1].strip(" >"):
            self.lines.append("")

    def handle_starttag(self, tag, attrs):
        if tag in HIDDEN:
            self.hidden += 1
        elif tag in BLOCKS:
            self._newline()
            self.depth += tag == "blockquote"

    def handle_endtag(self, tag):
        if tag in HIDDEN:
            self.hidden = max(self.hidden - 1, 0)
        elif tag in BLOCKS:
            self._newline()
            self.depth = max(self.depth - (tag == "blockquote"), 0)

    def handle_data(self, data):
        if self.hidden:
            return
        for n, piece in enumerate(data.split("\n")):
            if n:
                self._newline()
            text = " ".join(piece.split())
            if text:
                if not self.lines[-1]:
                    self.lines[-1] = "> " * self.depth
                self.lines[-1] += (" " if self.lines[-1].strip(" >") else "") + text


def html_text(html: str) -> str:
    parser = _HtmlText()
    parser.feed(html)
    parser.close()
    return "\n".join(line.rstrip() for line in parser.lines)


def own_lines(text: str) -> list[str]:
    """The lines the player wrote, stripped, blank ones left out (see the module's docstring)."""
    lines = [line.rstrip("\r") for line in text.split("\n")]
    out: list[str] = []
    last = -1  # the index of out[-1] in lines
    for n, line in enumerate(lines):
        stripped = line.strip()
        if line == "-- " or stripped == "--" or ORIGINAL.match(stripped) or _header_block(lines, n):
            break  # a signature, or the original message as Outlook includes it (unquoted) below
        if not stripped or stripped.startswith(">") or SENT_FROM.match(stripped):
            continue
        if WROTE.search(stripped) and _quote_follows(lines, n):
            if out and last == n - 1 and out[-1].startswith("On ") and not stripped.startswith("On "):
                out.pop()  # Gmail's attribution wrapped over two lines: "On DATE NAME <" / "ADDRESS> wrote:"
            continue
        out.append(stripped)
        last = n
    return out


def _quote_follows(lines: list[str], n: int) -> bool:
    """The next non-blank line after line `n` is quoted, or there is none: line `n` is an attribution."""
    rest = [line.strip() for line in lines[n + 1:] if line.strip()]
    return not rest or rest[0].startswith(">")


def _header_block(lines: list[str], n: int) -> bool:
    """Line `n` starts a block like Outlook's "From: ... / Sent: ... / To: ... / Subject: ..." (the original
    message follows it, unquoted)."""
    block = []
    for line in lines[n:n + 6]:
        m = HEADER_BLOCK.match(line.strip())
        if not m:
            break
        block.append(m.group(1).lower())
    return len(block) >= 2 and block[0] == "from" and ("sent" in block or "date" in block)
