# The A/B table of session 46 from the suite outputs: python3 ab_table.py ../callA_suite1.json ...
import json,sys
def cfg(c):
    if not c: return '-'
    if c.get('family')!='generated': return 'cublaslt '+str(c.get('tile'))
    s=f"{c['path']} {c['workgroup']} s{c['pipeline_stages']}"
    if c.get('split_k',1)>1: s+=f" sk{c['split_k']}"
    if c.get('cluster_m'): s+=f" cm{c['cluster_m']}"
    if c.get('cluster_n'): s+=f" cn{c['cluster_n']}"
    if c.get('swap_ab'): s+=" swap"
    if c.get('min_blocks_per_sm',1)>1: s+=" pair"
    return s
for f in sys.argv[1:]:
    d=json.load(open(f))
    print('##',f,d['device'],d['date'])
    for r in d['rows']:
        a=r['ktune']; b=r.get('compare',{})
        us=lambda x: round(x*1e6,2) if x else None
        print(f"{r['name']:30s} A g/d {a['baseline_s']/a['generated_s']:.3f} B g/d {b['baseline_s']/b['generated_s']:.3f} | A gen {us(a['generated_s'])} def {us(a['baseline_s'])} pick {us(a['pick_s'])} | B gen {us(b['generated_s'])} def {us(b['baseline_s'])} pick {us(b['pick_s'])} | tune A {a['wall_s']:.1f} B {b['wall_s']:.1f} triton {r.get('triton_tune_s',0):.1f} | dobench A {r.get('ktune_generated_ms',0)*1e3:.1f} B {b.get('generated_ms',0)*1e3:.1f} triton {r.get('triton_ms',0)*1e3:.1f} torch {r.get('torch_ms',0)*1e3:.1f} | {cfg(a.get('generated_config'))} / {cfg(b.get('generated_config'))}")
