#!/usr/bin/env bash
# Every Swift name the refresh protocol's model (Model/refresh.pml) and its
# prose (docs/PROTOCOL.md) cite must still be defined in the sources: a name
# renamed or removed without its citation leaves the model checking a client
# that no longer exists (issue 36 found `SessionClient.endRefreshedSession`
# cited twice after it was gone).
#
# What counts as a citation:
# - `SessionClient.x` (or `Type.x` for a type the sources declare) anywhere in either file;
# - in Model/refresh.pml's comments, every name in a `a -> b(...)` call chain;
# - in docs/PROTOCOL.md, every name in a table's "Swift" column.
# A name is defined when the sources (Sources/, Server/Sources/) declare it as a
# func, var, let, case, init or type; a `XxxTests.name` citation must be a test in Tests/ or Server/Tests/.
#
# Usage: scripts/check-model-citations.sh [MODEL] [PROSE]   (defaults: the repository's own)
set -euo pipefail
cd "$(dirname "$0")/.."
model="${1:-Model/refresh.pml}"
prose="${2:-docs/PROTOCOL.md}"

python3 - "$model" "$prose" <<'PY'
import pathlib, re, sys

model, prose = (pathlib.Path(p) for p in sys.argv[1:3])
def swift_text(roots):
    return "\n".join(p.read_text(errors="replace") for r in roots for p in pathlib.Path(r).rglob("*.swift"))
sources = swift_text(["Sources", "Server/Sources"])
tests = swift_text(["Tests", "Server/Tests"])

types = set(re.findall(r"\b(?:struct|class|actor|enum|protocol|extension|typealias)\s+([A-Z]\w*)", sources))
ident = r"[A-Za-z_]\w*"

def defined(name):
    return re.search(rf"\b(?:func|var|let|case|typealias|struct|class|actor|enum|protocol)\s+`?{name}\b", sources) \
        or re.search(rf"\bcase\s[^\n=]*[\s,.(]{name}\b", sources)

cited = []  # (file, line, dotted name)
for path in (model, prose):
    for n, line in enumerate(path.read_text().splitlines(), 1):
        for m in re.finditer(rf"\bSessionClient\.({ident})", line):
            cited.append((path, n, "SessionClient." + m.group(1)))

# The model's comments (Promela's own `->` is a guard, outside comments): call chains (`a -> b -> c(...)`).
comments, inside = [], False
for n, line in enumerate(model.read_text().splitlines(), 1):
    text, rest = "", line
    while rest:
        if inside:
            end = rest.find("*/")
            text += rest if end < 0 else rest[:end]
            inside, rest = (True, "") if end < 0 else (False, rest[end + 2:])
        else:
            start = rest.find("/*")
            inside, rest = (False, "") if start < 0 else (True, rest[start + 2:])
    comments.append((n, text))
for n, line in comments:
    if "->" not in line:
        continue
    for part in line.split("->"):
        for m in re.finditer(rf"(?:({ident})\.)?({ident})\s*(?:\(|$)", part.strip()):
            owner, name = m.groups()
            if owner in types or (owner is None and re.fullmatch(r"[a-z]\w*[A-Z]\w*", name)):
                cited.append((model, n, f"{owner}.{name}" if owner else name))

# The prose's tables: the "Swift" column.
column = None
for n, line in enumerate(prose.read_text().splitlines(), 1):
    cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else None
    if cells is None:
        column = None
        continue
    if "Swift" in cells:
        column = cells.index("Swift")
        continue
    if column is None or column >= len(cells) or set(cells[column]) <= set("-: "):
        continue
    for tick in re.findall(r"`([^`]+)`", cells[column]):
        m = re.match(rf"\.?((?:{ident}\.)*{ident})", tick)
        if m:
            cited.append((prose, n, m.group(1)))

missing = []
for path, n, dotted in cited:
    parts = dotted.split(".")
    name, owner = parts[-1], (parts[-2] if len(parts) > 1 else None)
    if re.fullmatch(r"[a-z0-9]+(?:_[a-z0-9]+)+", name):
        continue  # a wire or column name (`not_after`), not Swift
    if owner and owner[0].islower():
        owner = None  # an instance (`store.save`): the member is what is cited
    if owner and owner.endswith("Tests"):
        ok = re.search(rf"\bfunc\s+{name}\b", tests)
    elif owner and owner not in types:
        ok = False  # a type the sources do not declare
    elif name in types:
        ok = True
    else:
        ok = defined(name)
    if not ok:
        missing.append(f"{path}:{n}: `{dotted}` is cited but not defined in Sources/")

names = {d for _, _, d in cited}
missing = sorted(set(missing))
if missing:
    print("\n".join(missing))
    print(f"check-model-citations: {len(missing)} of {len(cited)} citations name nothing; fix the citation or the code")
    sys.exit(1)
print(f"check-model-citations: {len(cited)} citations ({len(names)} names) in {model} and {prose}, all defined")
PY
