#!/usr/bin/env python3
"""Checks every relative link in the repository's Markdown files.

    check_markdown_links.py ROOT

A link's target must exist (file or folder, relative to the Markdown file that holds it), and a
`#fragment` must name a heading of the target Markdown file, spelled as GitHub spells its anchors.
Links to other schemes (https:, mailto:) are not followed. Fenced code blocks and inline code are
not links. Build trees, dependencies and hidden folders are skipped.

Exit status: 0 when every link resolves, 1 when one does not (each is listed as file:line), 2 on
bad usage.
"""
import os
import re
import sys
import unicodedata

SKIPPED_DIRS = {"build", "deps", "results", "node_modules", "__pycache__"}
# [text](target "title") and ![alt](target); the target stops at whitespace or the closing paren.
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
# [label]: target
REFERENCE_DEFINITION = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
HTML_LINK = re.compile(r"""<(?:a|img)\s[^>]*?(?:href|src)\s*=\s*["']([^"']+)["']""", re.IGNORECASE)
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
EXPLICIT_ANCHOR = re.compile(r"""<a\s[^>]*?(?:name|id)\s*=\s*["']([^"']+)["']""", re.IGNORECASE)


def markdown_files(root):
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS and not d.startswith("."))
        for name in sorted(files):
            if name.endswith(".md"):
                yield os.path.join(folder, name)


def prose_lines(path, keep_code_spans=False):
    """(line number, text) of the lines outside fenced code, inline code blanked out unless kept."""
    fence = None
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            stripped = line.lstrip()
            marker = re.match(r"(`{3,}|~{3,})", stripped)
            if fence is None and marker:
                fence = marker.group(1)[0] * len(marker.group(1))
                continue
            if fence is not None:
                if stripped.startswith(fence):
                    fence = None
                continue
            if keep_code_spans:
                yield number, line
            else:
                yield number, re.sub(r"(`+)(?:(?!\1).)+?\1", lambda m: " " * len(m.group(0)), line)


def github_anchor(heading):
    """The anchor GitHub gives a heading: lower case, markup and punctuation dropped, spaces to -."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link keeps its text
    text = re.sub(r"<[^>]+>", "", text).replace("`", "").lower()
    kept = []
    for ch in text:
        category = unicodedata.category(ch)
        if ch in "-_" or category[0] in "LN" or category == "Mn":
            kept.append(ch)
        elif ch == " ":
            kept.append("-")
    return "".join(kept)


_anchor_cache = {}


def anchors_of(path):
    if path not in _anchor_cache:
        anchors, seen = set(), {}
        for _, line in prose_lines(path, keep_code_spans=True):
            for name in EXPLICIT_ANCHOR.findall(line):
                anchors.add(name)
            heading = HEADING.match(line)
            if not heading:
                continue
            base = github_anchor(heading.group(2))
            count = seen.get(base, 0)
            seen[base] = count + 1
            anchors.add(base if count == 0 else f"{base}-{count}")
        _anchor_cache[path] = anchors
    return _anchor_cache[path]


def targets(line):
    for pattern in (INLINE_LINK, HTML_LINK):
        yield from pattern.findall(line)
    definition = REFERENCE_DEFINITION.match(line)
    if definition:
        yield definition.group(1)


def broken_links(root):
    for path in markdown_files(root):
        for number, line in prose_lines(path):
            for target in targets(line):
                if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target):
                    continue  # https:, mailto: and the like
                where, _, fragment = target.partition("#")
                resolved = os.path.normpath(os.path.join(os.path.dirname(path), where)) if where else path
                rel = os.path.relpath(path, root)
                if not os.path.exists(resolved):
                    yield f"{rel}:{number}: '{target}': no such file or folder"
                elif fragment and resolved.endswith(".md") and fragment not in anchors_of(resolved):
                    yield f"{rel}:{number}: '{target}': no heading with the anchor #{fragment}"


def main(argv):
    if len(argv) != 2 or not os.path.isdir(argv[1]):
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    root = os.path.abspath(argv[1])
    broken = list(broken_links(root))
    for message in broken:
        print(message)
    checked = sum(1 for _ in markdown_files(root))
    if broken:
        print(f"{len(broken)} broken relative link(s) in {checked} Markdown files", file=sys.stderr)
        return 1
    print(f"every relative link in {checked} Markdown files resolves")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
