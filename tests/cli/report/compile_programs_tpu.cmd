xplane-stat report testdata/real/tpu_v6e_inference.xplane.pb -o - 2>/dev/null | sed -n '/<section id="compile">/,/<\/section>/p' | grep -o '<td class="name">[^<]*</td><td class="num prog">[^<]*'
