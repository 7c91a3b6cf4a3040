import json, sys
name = sys.argv[1]
def c(wg, st, sm=1, sn=1, cn=1, cm=1, k=64, p=True, split=1, reduce=False, mb=1, sc=False, swap=False):
    d = {"family": "generated", "min_blocks_per_sm": mb, "path": "wgmma", "persistent": p, "pipeline_stages": st,
         "reduction": k, "reorder_workgroups": 8, "split_k": split, "subgroup_m_count": sm, "subgroup_n_count": sn,
         "workgroup": wg}
    if cn > 1: d["cluster_n"] = cn
    if cm > 1: d["cluster_m"] = cm
    if reduce: d["split_reduce"] = True
    if sc: d["split_cluster"] = True
    if swap: d["swap_ab"] = True
    return d
g = []
if name.startswith("odd_1000"):
    # session 22's best, then bigger clusters (now that the cluster exit barrier is gone), non-persistent, 2 CTAs/SM
    # (N-contiguous B: cluster_m needs tile_n a multiple of 128)
    g = [c("128x64", 5, sm=2, cn=2), c("128x64", 5, sm=2, cn=4), c("128x64", 4, sm=2, cn=4),
         c("128x64", 5, sm=2, cn=2, p=False), c("128x64", 5, sm=2, cn=4, p=False),
         c("128x64", 3, sm=2, mb=2, p=False), c("128x64", 3, sm=2, cn=2, mb=2, p=False), c("64x64", 4, mb=2, p=False),
         c("64x64", 4, cn=2, mb=2, p=False), c("64x64", 4, cn=4, mb=2, p=False), c("128x128", 4, sm=2, cn=2, cm=2),
         c("128x128", 4, sm=2, cn=2), c("64x128", 4, cm=2, cn=2), c("64x128", 4, cm=2, cn=2, p=False, mb=2),
         c("64x128", 4, cm=2, p=False, mb=2)]
elif name.startswith("shortk_2048"):
    g = [c("256x128", 3, sm=2), c("128x256", 3, sn=2), c("128x128", 3, sm=2),
         c("64x128", 2, p=False, mb=2), c("64x128", 3, p=False, mb=2), c("64x64", 2, p=False, mb=3),
         c("128x64", 2, sm=2, p=False, mb=2), c("128x128", 2, sm=2, p=False),
         c("64x256", 2, sn=2, p=False), c("128x256", 2, sn=2, p=False), c("256x128", 2, sm=2, p=False),
         c("64x128", 2, cn=2, p=False, mb=2)]
elif name.startswith("bmm_b64"):
    g = [c("64x64", 4, p=False), c("64x64", 3, p=False), c("64x64", 2, p=False), c("64x64", 2, p=False, mb=3),
         c("64x64", 2, p=False, mb=2), c("128x64", 2, sm=2, p=False, mb=2), c("64x128", 2, p=False, mb=2),
         c("128x128", 2, sm=2, p=False),
         c("64x64", 2, k=128, p=False, mb=2), c("128x64", 2, sm=2, k=128, p=False, mb=2), c("64x64", 2, cn=2, p=False, mb=2),
         c("128x128", 3, sm=2)]
elif name.startswith("longk_256"):
    g = [c("64x64", 12, split=16, reduce=True), c("64x64", 12, split=16, reduce=True, p=False),
         c("64x32", 12, split=8, reduce=True), c("64x32", 16, split=8, reduce=True), c("64x32", 16, split=8, reduce=True, cn=2),
         c("64x32", 16, split=8, reduce=True, cm=2), c("64x32", 8, split=8, reduce=True, p=False, mb=2),
         c("64x32", 8, split=16, reduce=True, mb=2, p=False), c("64x64", 8, split=16, reduce=True, cn=2, cm=2),
         c("64x64", 6, split=32, reduce=True, mb=2, p=False),
         c("64x128", 4, split=32, reduce=True, mb=2, p=False), c("128x128", 4, sm=2, split=32, reduce=True, cm=2),
         c("64x32", 16, split=8, reduce=True, cn=2, p=False)]
if name.startswith("longk_256") and len(sys.argv) > 2:  # run 5: split-K inside a cluster
    g = [c("64x64", 8, split=16, reduce=True), c("64x32", 16, split=8, p=False, sc=True), c("64x32", 8, split=8, p=False, sc=True),
         c("64x64", 8, split=8, p=False, sc=True), c("64x64", 12, split=8, p=False, sc=True), c("64x32", 16, split=4, p=False, sc=True),
         c("64x64", 12, split=4, p=False, sc=True)]
elif name.startswith("longk_128x256") and len(sys.argv) > 2:
    g = [c("64x64", 8, split=16, reduce=True), c("64x64", 8, split=8, p=False, sc=True), c("64x64", 12, split=8, p=False, sc=True),
         c("64x128", 8, split=8, p=False, sc=True), c("64x64", 12, split=4, p=False, sc=True)]
elif name.startswith("l70b_o_decode") and len(sys.argv) > 2:
    g = [c("64x16", 4, split=2, p=False, swap=True), c("64x16", 4, split=2, p=False, swap=True, sc=True),
         c("64x16", 8, split=4, p=False, swap=True, sc=True), c("64x16", 8, split=8, p=False, swap=True, sc=True),
         c("64x16", 12, split=2, p=False, swap=True, sc=True)]
print(json.dumps(g))
