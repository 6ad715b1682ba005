require /usr/bin/python3; xplane-stat autotune --per-file $SYNTH/autotune >$TMP/lines; echo "exit $?"; xplane-stat autotune --json $SYNTH/autotune >$TMP/pooled; /usr/bin/python3 -c "
import json, statistics
lines = [json.loads(l) for l in open('$TMP/lines')]
pooled = json.load(open('$TMP/pooled'))['candidates']
samples = {}
for l in lines:
    for k, c in l['candidates'].items():
        samples.setdefault(k, []).extend(c['samples_s'])
print(len(lines), 'lines;', 'candidates', sorted(samples) == sorted(pooled))
for k in sorted(samples):
    s = sorted(samples[k]); p = pooled[k]
    t = s[1:-1] if len(s) > 2 else s
    ok = (len(s) == p['n'] and abs(min(s) - p['min_s']) < 1e-15 and abs(max(s) - p['max_s']) < 1e-15
          and abs(statistics.median(s) - p['median_s']) < 1e-15 and abs(statistics.fmean(t) - p['mean_s']) < 1e-12 * p['mean_s'])
    print(k, len(s), 'reduces to the pooled result' if ok else 'DIFFERS')
"
