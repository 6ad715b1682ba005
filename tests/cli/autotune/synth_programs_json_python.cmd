require python3; xplane-stat autotune --json $SYNTH/autotune_programs.xplane.pb | python3 -c '
import json, sys
def no_duplicates(pairs):
    keys = [k for k, _ in pairs]
    assert len(keys) == len(set(keys)), keys
    return dict(pairs)
doc = json.load(sys.stdin, object_pairs_hook=no_duplicates)
d = doc["candidates"]
print(sorted(d), d["0"]["mean_s"], d["0"]["program_ids"], d["1"]["program_ids"])
print("fastest:", doc["fastest"], "because:", doc["no_fastest_because"], "warnings:", len(doc["warnings"]))
try:
    print("version 1 one-liner:", min(d, key=lambda k: d[k]["mean_s"]))
except TypeError as e:
    print("version 1 one-liner fails:", type(e).__name__)
rows = [(k, p["program_id"], p["mean_s"], p["p_vs_fastest"]) for k, v in d.items()
        for p in v.get("programs", [dict(v, program_id=v["program_ids"][0])])]
print(sorted(rows, key=lambda r: r[2]))'
