# Checks paper 003's findings on data/*.tsv and prints Markdown tables (findings.md).
import os, sys, math
data = sys.argv[1]
names = ["CTC", "KTH", "SDSC96", "LANL"]
pols = [("EASY", 1), ("SJBF", 4), ("LXF&W", 7)]  # mean column index (after x)

def load(path):
    rows = []
    if not os.path.exists(path):
        return rows
    for line in open(path):
        if line.startswith("#"):
            continue
        f = line.split("\t")
        rows.append([float(v) for v in f])
    return rows

def perfect(trace):
    out = {}
    p = os.path.join(data, f"{trace}.perfect.tsv")
    if os.path.exists(p):
        for line in open(p):
            k, v = line.split()
            out[k] = float(v)
    return out

print("### Quantitative errors: bounded slowdown at error 5 % -> 1000 % -> 10000 % (max/min over all errors)\n")
print("| log | category | EASY | SJBF | LXF&W |")
print("|---|---|---|---|---|")
for n in names:
    for c in ["pure-equal", "equal", "short", "large"]:
        rows = load(os.path.join(data, f"{n}.quant.{c}.tsv"))
        if not rows:
            continue
        cells = []
        for _, col in pols:
            v = {r[0]: r[col] for r in rows}
            vals = [r[col] for r in rows]
            cells.append(f"{v.get(5, math.nan):.1f} -> {v.get(1000, math.nan):.1f} -> {v.get(10000, math.nan):.1f} ({max(vals) / min(vals):.2f}x)")
        print(f"| {n} | {c} | " + " | ".join(cells) + " |")
print()
print("### Qualitative errors: bounded slowdown at 5 % -> 50 % -> 100 % of the jobs converted (100 % / 5 %)\n")
print("| log | kind | EASY | SJBF | LXF&W |")
print("|---|---|---|---|---|")
for n in names:
    for k, label in [("short2large", "short2large"), ("large2short", "large2short"), ("both", "both"), ("qualx.both", "both, uncapped")]:
        exp = "qualx.both" if k == "qualx.both" else f"qual.{k}"
        rows = load(os.path.join(data, f"{n}.{exp}.tsv"))
        if not rows:
            continue
        cells = []
        for _, col in pols:
            v = {r[0]: r[col] for r in rows}
            cells.append(f"{v.get(5, math.nan):.1f} -> {v.get(50, math.nan):.1f} -> {v.get(100, math.nan):.1f} ({v.get(100, math.nan) / v.get(5, math.nan):.2f}x)")
        print(f"| {n} | {label} | " + " | ".join(cells) + " |")
print()
print("### Perfect predictions (quant with error 0), for reference\n")
print("| log | EASY | SJBF | LXF&W |")
print("|---|---|---|---|")
for n in names:
    p = perfect(n)
    if p:
        print(f"| {n} | {p.get('easy+', math.nan):.1f} | {p.get('easy++', math.nan):.1f} | {p.get('lxf-w+', math.nan):.1f} |")
