#!/usr/bin/env python3
"""L2 reads a one-wave tile grid should need if the L2 request coalescer merged every tile that
the CTAs of one GPC share (session 39), from sm_placement.cu's JSON (blockIdx -> SM; clusters of
16 name a GPC's SMs): the read / delivered ratio per rasterisation group, for 322x5120x8192 as
swapped 128x112 tiles (40 x 3). Compare with lrc__lts2lrc / lrc__xbar2gpc sectors from ncu.

  gpc_l2_model.py docs/data/issue12/session39/r2_placement.json
"""
import json,sys,collections
pl=json.load(open(sys.argv[1]))
sm_of=pl['plain']
c16=pl.get('cluster16') or []
gpc_of_sm={}
for i,s in enumerate(c16):
    if s>=0: gpc_of_sm[s]=i//16
# SMs not covered by cluster16: assign via cluster8
c8=pl.get('cluster8') or []
def tiles(tm_count, tn_count, group, linear):
    tiles_per_group=group*tn_count
    gid=linear//tiles_per_group; first=gid*group
    rows=min(group, tm_count-first); ing=linear-gid*tiles_per_group
    return first+ing%rows, ing//rows
def predict(tm_count,tn_count,a_rows,b_rows,group,domain):
    seen=collections.defaultdict(set); deliv=0; reads=0
    for cta in range(tm_count*tn_count):
        m,n=tiles(tm_count,tn_count,group,cta)
        dom=domain(cta)
        deliv+=a_rows+b_rows
        for key,rows in ((('a',m),a_rows),(('b',n),b_rows)):
            if key not in seen[dom]:
                seen[dom].add(key); reads+=rows
    return reads/deliv
gpc=lambda cta: gpc_of_sm.get(sm_of[cta],'?%d'%sm_of[cta])
tpc=lambda cta: sm_of[cta]//2
none=lambda cta: cta
print('GPCs', collections.Counter(gpc_of_sm.values()))
for group in (1,2,3,4,8,16,40):
    # rand4_01 swapped 128x112: kernel M tiles 40 (weights, 128 rows), N tiles 3 (acts, 112 rows)
    print('rand4_01 sw',group,'gpc %.3f'%predict(40,3,128,112,group,gpc),'tpc %.3f'%predict(40,3,128,112,group,tpc))
