#!/usr/bin/env python3
"""Compiles every ```swift block of README.md, the DocC articles and docs/*.md,
and with --comments those of the `///` comments of Sources/ (DocC's symbol pages).

Run by check.sh after SessionKit has been type-checked for iOS against the SDK
stubs, so blocks that use SwiftUI, UIKit or AuthenticationServices compile as
they would in an app:

    docblocks.py --root REPO --out DIR -- swiftc -emit-module -wmo <flags...>

Each document is one module; each block one file. A block's declarations
(types, functions, imports) stay at file scope; its statements are wrapped in
an `async throws` function on the main actor, as an app's code would run them.
`#sourceLocation` lines make every diagnostic name the Markdown file and line.

Names a sample takes from the app around it (`client`, `email`, `authURL`,
`ContentView`, ...) come from docprelude.swift: a section `// assume: Name` is
included unless the document declares Name itself.

A block that is not meant to compile (lines of a Package.swift, say) says so
in its info string, which GitHub and DocC still highlight as Swift:

    ```swift fragment
    .package(url: "https://github.com/sessionkit/sessionkit.git", from: "0.4.0"),
    ```

Keep them rare: every fragment is listed at the end of each run.

A block that shows a file of the repository (the sample app's) names it in
an HTML comment on the line before (DocC and GitHub show nothing of it; DocC
refuses unknown `key=value` options in the info string), and must be that
file or a run of its consecutive lines, so the article cannot drift from the
code CI type-checks (the file is compiled with its own module, not again here):

    <!-- sample: Examples/SampleApp/App/AppSession.swift -->
    ```swift
"""
import argparse
import os
import re
import subprocess
import sys

DOCUMENTS = ["README.md", "Sources/SessionKit/SessionKit.docc/*.md", "docs/*.md"]
# Doc comments (`///`) of the public targets: DocC shows their blocks on the symbol pages.
COMMENTED = ["Sources/SessionCore", "Sources/SessionKit", "Sources/SessionKitTesting"]
SAMPLE = re.compile(r"^\s*<!--\s*sample:\s*(\S+)\s*-->\s*$")
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([^\s`]*)(.*)$")
DECLARATION = re.compile(
    r"^(@\w+|import|struct|class|enum|actor|extension|protocol|func|typealias|final|public|private|fileprivate|internal|open|indirect)\b")
IMPORTS = ["Foundation", "Logging", "SessionKit", "SessionKitTesting", "SwiftUI", "Testing"]


def documents(root):
    found = []
    for pattern in DOCUMENTS:
        folder, _, glob = pattern.rpartition("/")
        if "*" in glob:
            directory = os.path.join(root, folder)
            if os.path.isdir(directory):
                found += sorted(os.path.join(folder, name) for name in os.listdir(directory) if name.endswith(".md"))
        elif os.path.exists(os.path.join(root, pattern)):
            found.append(pattern)
    return found


def commented(root):
    found = []
    for folder in COMMENTED:
        for directory, _, names in os.walk(os.path.join(root, folder)):
            for name in sorted(names):
                if name.endswith(".swift"):
                    path = os.path.join(directory, name)
                    with open(path) as handle:
                        if "/// ```swift" in handle.read():
                            found.append(os.path.relpath(path, root))
    return sorted(found)


def doc_comment_text(text):
    """The text of a Swift file's `///` comments, every other line blank, so line numbers stay."""
    lines = []
    for line in text.split("\n"):
        match = re.match(r"^\s*/// ?(.*)$", line)
        lines.append(match.group(1) if match else "")
    return "\n".join(lines)


def blocks(path, text):
    """Yields (first line number of the code, lines, fragment reason or None) for each swift block."""
    if path.endswith(".swift"):
        text = doc_comment_text(text)
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        match = FENCE.match(lines[i])
        if not match:
            i += 1
            continue
        indent, fence, language = match.group(1), match.group(2), match.group(3).lower()
        start = i + 1
        end = start
        while end < len(lines):
            closing = FENCE.match(lines[end])
            if closing and closing.group(2).startswith(fence[0]) and len(closing.group(2)) >= len(fence) and not closing.group(3):
                break
            end += 1
        if language == "swift":
            words = match.group(4).split()
            reason = "fragment" if words[:1] == ["fragment"] else None
            previous = lines[i - 1] if i > 0 else ""
            marked = SAMPLE.match(previous)
            if marked:
                reason = "sample=" + marked.group(1)
            code = [line[len(indent):] if line.startswith(indent) else line.lstrip() for line in lines[start:end]]
            yield start + 1, code, reason
        i = end + 1


def sample_mismatch(root, sample, code):
    """Why a block marked `sample=PATH` is not a run of PATH's consecutive lines; None when it is."""
    path = os.path.join(root, sample)
    if not os.path.isfile(path):
        return "names %s, which does not exist" % sample
    with open(path) as handle:
        lines = [line.rstrip() for line in handle.read().split("\n")]
    shown = [line.rstrip() for line in code]
    while shown and not shown[-1]:
        shown.pop()
    if not shown:
        return "is empty"
    for start in range(len(lines) - len(shown) + 1):
        if lines[start:start + len(shown)] == shown:
            return None
    for index, line in enumerate(shown):
        if line not in lines:
            return "differs from %s: its line %d (%r) is not in the file" % (sample, index + 1, line.strip()[:60])
    return "differs from %s: its lines are not consecutive there" % sample


def strip_strings(line):
    line = re.sub(r'#+"(.*?)"#+', '""', line)
    line = re.sub(r'"(\\.|[^"\\])*"', '""', line)
    return line.split("//")[0]


def items(code, first_line):
    """Splits a block into top-level items: (line number, lines, is_declaration)."""
    result = []
    depth = 0
    current = None
    for offset, line in enumerate(code):
        bare = strip_strings(line)
        stripped = line.strip()
        continues = current is not None and (
            depth > 0 or stripped.startswith((".", "}", ")", "]", "?", ":", "&&", "||", "+", "-", "*", "/", "where", "else", "catch"))
            or (current[1] and current[1][-1].rstrip().endswith((",", "(", "[", "=", "&&", "||", "+", "->", "in", "{"))))
        if stripped and not continues and not stripped.startswith("//"):
            current = [first_line + offset, [], bool(DECLARATION.match(stripped))]
            result.append(current)
        if current is not None:
            current[1].append(line)
        depth += bare.count("{") + bare.count("(") + bare.count("[") - bare.count("}") - bare.count(")") - bare.count("]")
    return result


def declared_names(code):
    names = set()
    for line in code:
        for match in re.finditer(r"\b(?:struct|class|enum|actor|protocol|typealias|func)\s+([A-Za-z_]\w*)", line):
            names.add(match.group(1))
    return names


def prelude_sections(path):
    sections = []
    with open(path) as handle:
        text = handle.read()
    header, *parts = re.split(r"^// assume: ", text, flags=re.M)
    for part in parts:
        name, _, body = part.partition("\n")
        sections.append((name.strip(), body))
    return header, sections


def write_block(out, relative, number, code):
    # SessionKitTesting's samples are test code, which Swift Testing runs off the main actor;
    # an app's code (the rest) runs on it.
    isolation = "nonisolated" if relative.startswith("Sources/SessionKitTesting/") else "@MainActor"
    imports = [line.strip() for line in code if re.match(r"^\s*import\s+\w+", line)]
    lines = ["import %s" % module for module in IMPORTS if "import %s" % module not in imports]
    lines += imports
    statements = []
    for line_number, item_lines, is_declaration in items(code, number):
        if item_lines[0].strip().startswith("import "):
            continue
        chunk = ['#sourceLocation(file: "%s", line: %d)' % (relative, line_number)] + item_lines
        if is_declaration:
            lines += chunk + ["#sourceLocation()"]
        else:
            statements += chunk
    if statements:
        lines.append("%s func docBlock_line%d() async throws {" % (isolation, number))
        lines += statements
        lines += ["#sourceLocation()", "}"]
    path = os.path.join(out, "block_%d.swift" % number)
    with open(path, "w") as handle:
        handle.write("\n".join(lines) + "\n")
    return path


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--comments", action="store_true", help="also the blocks of /// comments in Sources/")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    here = os.path.dirname(os.path.abspath(__file__))
    header, sections = prelude_sections(os.path.join(here, "docprelude.swift"))
    compiled, fragments, failures, samples = 0, [], [], 0
    for relative in documents(args.root) + (commented(args.root) if args.comments else []):
        with open(os.path.join(args.root, relative)) as handle:
            found = list(blocks(relative, handle.read()))
        fragments += ["%s:%d" % (relative, number) for number, _, reason in found if reason == "fragment"]
        for number, code, reason in found:
            if reason and reason.startswith("sample="):
                samples += 1
                mismatch = sample_mismatch(args.root, reason[len("sample="):], code)
                if mismatch:
                    failures.append("%s:%d: the sample block %s" % (relative, number, mismatch))
        found = [(number, code) for number, code, reason in found if not reason]
        if not found:
            continue
        slug = re.sub(r"\W", "_", relative)
        out = os.path.join(args.out, slug)
        os.makedirs(out, exist_ok=True)
        declared = set().union(*(declared_names(code) for _, code in found))
        prelude = header + "".join(body for name, body in sections if name not in declared)
        files = [os.path.join(out, "prelude.swift")]
        with open(files[0], "w") as handle:
            handle.write(prelude)
        files += [write_block(out, relative, number, code) for number, code in found]
        module = ["-module-name", "Doc_" + slug, "-parse-as-library"]
        if "-emit-module" in command:
            module += ["-emit-module-path", os.path.join(out, "Doc_%s.swiftmodule" % slug)]
        result = subprocess.run(command + module + files,
                                cwd=args.root, capture_output=True, text=True)
        compiled += len(found)
        if result.returncode != 0:
            output = result.stdout + result.stderr
            sys.stdout.write(output)
            starts = [number for number, _ in found]
            for match in re.finditer(r"^(%s):(\d+):\d+: error: (.*)$" % re.escape(relative), output, re.M):
                line = int(match.group(2))
                block = max([start for start in starts if start <= line] or [0])
                failures.append("%s:%s: in the block at line %d: %s" % (relative, line, block, match.group(3)))
            if not any(failure.startswith(relative + ":") for failure in failures):
                # No error with a line (a compiler crash, say): name the blocks its output mentions.
                named = sorted(set(int(n) for n in re.findall(r"docBlock_line(\d+)", output)))
                where = ", ".join("%s:%d" % (relative, n) for n in named) or relative
                failures.append("%s: the compiler failed (see its output above)" % where)
    print("docblocks: %d Swift blocks compiled; %d sample blocks matched against their files; fragments, not compiled (%d): %s"
          % (compiled, samples, len(fragments), ", ".join(fragments) or "none"))
    if failures:
        print("docblocks: FAILED, blocks that do not compile or differ from their sample file:")
        for failure in failures:
            print("  " + failure)
        return 1
    print("docblocks: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
