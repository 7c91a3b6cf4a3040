import json
def cfg(wg, sgm, stages, split=1, persistent=False, cn=1, cm=1, swap=False, dt='BF16', sgn=1):
    tm, tn = map(int, wg.split('x'))
    c = {'family':'generated','path':'wgmma','workgroup':wg,'reduction':64,'subgroup_m_count':sgm,'subgroup_n_count':sgn,
         'mma_kind':f'WGMMA_F32_64x{tn//sgn}x16_{dt}','pipeline_stages':stages,'split_k':split,'reorder_workgroups':8,
         'persistent':persistent,'min_blocks_per_sm':1}
    if cn>1: c['cluster_n']=cn
    if cm>1: c['cluster_m']=cm
    if swap: c['swap_ab']=True
    return c
L=[cfg('128x128',2,5,persistent=True), cfg('128x144',2,5,persistent=True)]
for wg,sgm in (('128x112',2),('128x112',1),('128x176',2),('256x112',4),('192x112',3),('128x96',2),('128x80',2)):
    for s in (4,5,6):
        for p in (False,True):
            L.append(cfg(wg,sgm,s,persistent=p,swap=True))
json.dump(L,open('.carry/s30/probe/rand01.json','w'))
print(len(L))
