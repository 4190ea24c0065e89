#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The documents stay a guide: README.md has at most 300 lines, and every relative link or image
in README.md, the method pages (coupling/*/README.md), framework/docs/*.md and
benchmarks/RESULTS.md names a file of the tree (and, for a Markdown file, a heading it has).

    check_docs.py SOURCE_DIR      check the tree; exit 1 listing each problem as FILE:LINE
    check_docs.py --self-test     check that a too-long README and broken links are reported
"""
import os
import re
import sys
import tempfile

MAX_README_LINES = 300
LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^\s*(```|~~~)")
INLINE_CODE = re.compile(r"`[^`]*`")


def documents(root):
    """The Markdown files checked, relative to root, in a stable order."""
    found = ["README.md"]
    for folder, pattern in (("coupling", "README.md"), ("framework/docs", None),
                            ("benchmarks", "RESULTS.md")):
        base = os.path.join(root, folder)
        if not os.path.isdir(base):
            continue
        for dirpath, _, files in sorted(os.walk(base)):
            for name in sorted(files):
                if (pattern is None and name.endswith(".md")) or name == pattern:
                    found.append(os.path.relpath(os.path.join(dirpath, name), root))
    return found


def slug(heading):
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = INLINE_CODE.sub(lambda m: m.group(0)[1:-1], heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def prose_lines(path):
    """(line number, text) of the lines outside fenced code."""
    in_fence = False
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if FENCE.match(line):
                in_fence = not in_fence
                continue
            if not in_fence:
                yield number, line


def anchors(path):
    found = set()
    for _, line in prose_lines(path):
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m:
            found.add(slug(m.group(1)))
    return found


def check(root):
    problems = []
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        n = sum(1 for _ in f)
    if n > MAX_README_LINES:
        problems.append(f"README.md: {n} lines, more than {MAX_README_LINES}: move detail to "
                        "framework/docs/ or a method's page")
    for doc in documents(root):
        path = os.path.join(root, doc)
        for number, line in prose_lines(path):
            for target in LINK.findall(INLINE_CODE.sub("", line)):
                if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
                    continue
                file_part, _, anchor = target.partition("#")
                resolved = (os.path.normpath(os.path.join(os.path.dirname(path), file_part))
                            if file_part else path)
                if not os.path.exists(resolved):
                    problems.append(f"{doc}:{number}: link to '{target}': no such file "
                                    f"{os.path.relpath(resolved, root)}")
                elif anchor and resolved.endswith(".md") and anchor not in anchors(resolved):
                    problems.append(f"{doc}:{number}: link to '{target}': "
                                    f"{os.path.relpath(resolved, root)} has no heading "
                                    f"'#{anchor}'")
    return problems


def self_test():
    """A tree with a 301-line README, a missing file and a missing heading: all three reported."""
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "coupling", "m"))
        with open(os.path.join(root, "coupling", "m", "README.md"), "w", encoding="utf-8") as f:
            f.write("# Method `m`\n\n[back](../../README.md#a-guide) [gone](../../nothing.png)\n"
                    "```sh\n[not a link](in-code.md)\n```\n")
        with open(os.path.join(root, "README.md"), "w", encoding="utf-8") as f:
            f.write("# A guide\n\n[m](coupling/m/README.md#method-m) [x](coupling/m/README.md#nope)"
                    " [web](https://example.org/x) `[code](no.md)`\n" + "line\n" * 298)
        problems = check(root)
    expected = ["README.md: 301 lines", "README.md:3: link to 'coupling/m/README.md#nope'",
                "coupling/m/README.md:3: link to '../../nothing.png': no such file nothing.png"]
    missing = [e for e in expected if not any(p.startswith(e) for p in problems)]
    if missing or len(problems) != len(expected):
        print("self-test FAILED: expected", expected, "got", problems)
        return 1
    print(f"check_docs self-test: ok ({len(problems)} problems found as expected)")
    return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    problems = check(argv[1])
    for p in problems:
        print(p)
    if problems:
        return 1
    print(f"check_docs: README.md within {MAX_README_LINES} lines, every link of "
          f"{len(documents(argv[1]))} documents resolves")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
