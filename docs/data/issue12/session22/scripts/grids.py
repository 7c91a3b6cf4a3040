import json, sys
name = sys.argv[1]
def c(wg, st, sm=1, sn=1, cn=1, cm=1, k=64, p=True, split=1, reduce=False):
    d = {"family": "generated", "min_blocks_per_sm": 1, "path": "wgmma", "persistent": p, "pipeline_stages": st,
         "reduction": k, "reorder_workgroups": 8, "split_k": split, "subgroup_m_count": sm, "subgroup_n_count": sn,
         "workgroup": wg}
    if cn > 1: d["cluster_n"] = cn
    if cm > 1: d["cluster_m"] = cm
    if reduce: d["split_reduce"] = True
    return d
g = []
if name.startswith("odd_1000"):
    g = [c("128x64", 5, sm=2, cn=2), c("128x64", 4, sm=2, cn=2), c("64x128", 4, sn=2, cm=2), c("128x64", 3, sm=2, cn=2, k=128),
         c("64x128", 3, sn=2, cm=2, k=128), c("128x64", 5, sm=2, cn=2, p=False), c("128x64", 5, cn=2), c("128x128", 4, sm=2)]
elif name.startswith("odd_3000"):
    g = [c("192x192", 4, sm=3, cn=2), c("192x192", 3, sm=3, cn=2), c("256x160", 3, sm=2, cn=2), c("192x192", 4, sm=3)]
elif name.startswith("shortk_8192"):
    g = [c("128x256", 3, sm=2, cn=2), c("128x256", 3, sm=2), c("128x256", 3, sn=2, cn=2), c("256x128", 3, sm=2, cm=2)]
elif name.startswith("shortk"):
    g = [c("256x128", 3, sm=2), c("128x256", 3, sn=2), c("128x128", 3, sm=2), c("128x128", 2), c("128x64", 3),
         c("64x128", 3), c("256x128", 3, sm=2, p=False), c("128x128", 3, sm=2, p=False), c("256x128", 2, sm=2, k=128),
         c("128x128", 2, sm=2, k=128), c("128x128", 3, sm=2, cn=2), c("128x256", 2, sn=2, k=128)]
elif name.startswith("longk_256"):
    g = [c("64x64", 8, split=16, reduce=True), c("64x64", 8, split=16), c("64x64", 8, split=16, reduce=True, cm=2),
         c("64x64", 8, split=16, reduce=True, cn=2), c("64x32", 8, split=8, reduce=True), c("64x32", 8, split=8, reduce=True, cm=2),
         c("64x64", 4, split=16, reduce=True, k=128), c("64x128", 6, split=32, reduce=True), c("128x128", 4, sm=2, split=64, reduce=True),
         c("128x64", 6, sm=2, split=32, reduce=True)]
print(json.dumps(g))
