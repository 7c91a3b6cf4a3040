; ModuleID = 'matmul_dispatch_0'
source_filename = "matmul_dispatch_0"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@__dynamic_shared_memory__ = external local_unnamed_addr addrspace(3) global [0 x i8], align 16

; Function Attrs: alwaysinline norecurse nounwind
define ptx_kernel void @matmul_dispatch_0_matmul_2048x10240x1280_f16xf16xf32(ptr addrspace(1) noalias noundef nonnull readonly align 16 captures(none) %0, ptr addrspace(1) noalias noundef nonnull readonly align 16 captures(none) %1, ptr addrspace(1) noalias nofree noundef nonnull writeonly align 16 captures(none) %2) local_unnamed_addr #0 {
  %4 = tail call range(i32 0, 128) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  call void @llvm.assume(i1 true) [ "align"(ptr addrspace(1) %0, i64 64) ]
  call void @llvm.assume(i1 true) [ "align"(ptr addrspace(1) %1, i64 64) ]
  call void @llvm.assume(i1 true) [ "align"(ptr addrspace(1) %2, i64 64) ]
  %5 = and i32 %4, 32
  %6 = lshr i32 %4, 2
  %7 = and i32 %6, 7
  %8 = shl nuw nsw i32 %4, 1
  %9 = and i32 %8, 6
  %10 = zext nneg i32 %9 to i64
  %11 = or disjoint i32 %4, 128
  %12 = lshr i32 %11, 2
  %13 = or disjoint i32 %6, 64
  %14 = or disjoint i32 %6, 96
  %15 = lshr i32 %4, 3
  %16 = lshr i32 %11, 3
  %17 = shl nuw nsw i32 %4, 3
  %18 = and i32 %17, 24
  %19 = and i32 %17, 56
  %20 = tail call range(i32 0, 2560) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %.lhs.trunc = trunc nuw nsw i32 %20 to i16
  %21 = udiv i16 %.lhs.trunc, 160
  %22 = mul i16 %21, 160
  %.decomposed = sub i16 %.lhs.trunc, %22
  %23 = shl nuw nsw i16 %21, 7
  %24 = zext nneg i16 %23 to i32
  %25 = or disjoint i32 %6, %24
  %26 = or disjoint i32 %12, %24
  %27 = or disjoint i32 %13, %24
  %28 = or disjoint i32 %14, %24
  %29 = shl nuw nsw i16 %.decomposed, 6
  %30 = zext nneg i16 %29 to i32
  %31 = or disjoint i32 %19, %30
  %32 = and i32 %4, 64
  %33 = or disjoint i32 %7, %32
  %34 = or disjoint i32 %9, 8
  %35 = zext nneg i32 %34 to i64
  %36 = or disjoint i32 %9, 16
  %37 = zext nneg i32 %36 to i64
  %38 = or disjoint i32 %9, 24
  %39 = zext nneg i32 %38 to i64
  %40 = or disjoint i32 %7, %5
  %41 = zext nneg i32 %40 to i64
  %42 = or disjoint i32 %40, 8
  %43 = zext nneg i32 %42 to i64
  %44 = or disjoint i32 %40, 16
  %45 = zext nneg i32 %44 to i64
  %46 = or disjoint i32 %40, 24
  %47 = zext nneg i32 %46 to i64
  %narrow8 = mul nuw nsw i32 %25, 1280
  %narrow10 = mul nuw nsw i32 %6, 36
  %narrow11 = add nuw nsw i32 %narrow10, %18
  %48 = zext nneg i32 %narrow11 to i64
  %49 = getelementptr [2 x i8], ptr addrspace(3) @__dynamic_shared_memory__, i64 %48
  %narrow12 = mul nuw nsw i32 %26, 1280
  %narrow14 = mul nuw nsw i32 %12, 36
  %narrow15 = add nuw nsw i32 %narrow14, %18
  %50 = zext nneg i32 %narrow15 to i64
  %51 = getelementptr [2 x i8], ptr addrspace(3) @__dynamic_shared_memory__, i64 %50
  %narrow16 = mul nuw nsw i32 %27, 1280
  %narrow18 = mul nuw nsw i32 %13, 36
  %narrow19 = add nuw nsw i32 %narrow18, %18
  %52 = zext nneg i32 %narrow19 to i64
  %53 = getelementptr [2 x i8], ptr addrspace(3) @__dynamic_shared_memory__, i64 %52
  %narrow20 = mul nuw nsw i32 %28, 1280
  %narrow22 = mul nuw nsw i32 %14, 36
  %narrow23 = add nuw nsw i32 %narrow22, %18
  %54 = zext nneg i32 %narrow23 to i64
  %55 = getelementptr [2 x i8], ptr addrspace(3) @__dynamic_shared_memory__, i64 %54
  %narrow26 = mul nuw nsw i32 %15, 68
  %narrow27 = add nuw nsw i32 %narrow26, %19
  %56 = zext nneg i32 %narrow27 to i64
  %57 = getelementptr [2 x i8], ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @__dynamic_shared_memory__, i64 9216), i64 %56
  %narrow30 = mul nuw nsw i32 %16, 68
  %narrow31 = add nuw nsw i32 %narrow30, %19
  %58 = zext nneg i32 %narrow31 to i64
  %59 = getelementptr [2 x i8], ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @__dynamic_shared_memory__, i64 9216), i64 %58
  %narrow32 = mul nuw nsw i32 %33, 36
  %60 = zext nneg i32 %narrow32 to i64
  %61 = getelementptr [2 x i8], ptr addrspace(3) @__dynamic_shared_memory__, i64 %60
  %62 = getelementptr [2 x i8], ptr addrspace(3) %61, i64 %10
  %63 = getelementptr [2 x i8], ptr addrspace(3) %61, i64 %35
  %64 = getelementptr [2 x i8], ptr addrspace(3) %61, i64 %37
  %65 = getelementptr [2 x i8], ptr addrspace(3) %61, i64 %39
  %66 = getelementptr i8, ptr addrspace(3) %61, i64 576
  %67 = getelementptr [2 x i8], ptr addrspace(3) %66, i64 %10
  %68 = getelementptr [2 x i8], ptr addrspace(3) %66, i64 %35
  %69 = getelementptr [2 x i8], ptr addrspace(3) %66, i64 %37
  %70 = getelementptr [2 x i8], ptr addrspace(3) %66, i64 %39
  %71 = getelementptr i8, ptr addrspace(3) %61, i64 1152
  %72 = getelementptr [2 x i8], ptr addrspace(3) %71, i64 %10
  %73 = getelementptr [2 x i8], ptr addrspace(3) %71, i64 %35
  %74 = getelementptr [2 x i8], ptr addrspace(3) %71, i64 %37
  %75 = getelementptr [2 x i8], ptr addrspace(3) %71, i64 %39
  %76 = getelementptr i8, ptr addrspace(3) %61, i64 1728
  %77 = getelementptr [2 x i8], ptr addrspace(3) %76, i64 %10
  %78 = getelementptr [2 x i8], ptr addrspace(3) %76, i64 %35
  %79 = getelementptr [2 x i8], ptr addrspace(3) %76, i64 %37
  %80 = getelementptr [2 x i8], ptr addrspace(3) %76, i64 %39
  %81 = getelementptr i8, ptr addrspace(3) %61, i64 2304
  %82 = getelementptr [2 x i8], ptr addrspace(3) %81, i64 %10
  %83 = getelementptr [2 x i8], ptr addrspace(3) %81, i64 %35
  %84 = getelementptr [2 x i8], ptr addrspace(3) %81, i64 %37
  %85 = getelementptr [2 x i8], ptr addrspace(3) %81, i64 %39
  %86 = getelementptr i8, ptr addrspace(3) %61, i64 2880
  %87 = getelementptr [2 x i8], ptr addrspace(3) %86, i64 %10
  %88 = getelementptr [2 x i8], ptr addrspace(3) %86, i64 %35
  %89 = getelementptr [2 x i8], ptr addrspace(3) %86, i64 %37
  %90 = getelementptr [2 x i8], ptr addrspace(3) %86, i64 %39
  %91 = getelementptr i8, ptr addrspace(3) %61, i64 3456
  %92 = getelementptr [2 x i8], ptr addrspace(3) %91, i64 %10
  %93 = getelementptr [2 x i8], ptr addrspace(3) %91, i64 %35
  %94 = getelementptr [2 x i8], ptr addrspace(3) %91, i64 %37
  %95 = getelementptr [2 x i8], ptr addrspace(3) %91, i64 %39
  %96 = getelementptr i8, ptr addrspace(3) %61, i64 4032
  %97 = getelementptr [2 x i8], ptr addrspace(3) %96, i64 %10
  %98 = getelementptr [2 x i8], ptr addrspace(3) %96, i64 %35
  %99 = getelementptr [2 x i8], ptr addrspace(3) %96, i64 %37
  %100 = getelementptr [2 x i8], ptr addrspace(3) %96, i64 %39
  %.idx = mul nuw nsw i64 %10, 136
  %101 = getelementptr i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @__dynamic_shared_memory__, i64 9216), i64 %.idx
  %102 = getelementptr [2 x i8], ptr addrspace(3) %101, i64 %41
  %103 = getelementptr [2 x i8], ptr addrspace(3) %101, i64 %43
  %104 = getelementptr [2 x i8], ptr addrspace(3) %101, i64 %45
  %105 = getelementptr [2 x i8], ptr addrspace(3) %101, i64 %47
  %106 = mul nuw nsw i32 %9, 68
  %107 = zext nneg i32 %106 to i64
  %108 = getelementptr [2 x i8], ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @__dynamic_shared_memory__, i64 9216), i64 %107
  %109 = getelementptr i8, ptr addrspace(3) %108, i64 136
  %110 = getelementptr [2 x i8], ptr addrspace(3) %109, i64 %41
  %111 = getelementptr [2 x i8], ptr addrspace(3) %109, i64 %43
  %112 = getelementptr [2 x i8], ptr addrspace(3) %109, i64 %45
  %113 = getelementptr [2 x i8], ptr addrspace(3) %109, i64 %47
  %.idx46 = mul nuw nsw i64 %35, 136
  %114 = getelementptr i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @__dynamic_shared_memory__, i64 9216), i64 %.idx46
  %115 = getelementptr [2 x i8], ptr addrspace(3) %114, i64 %41
  %116 = getelementptr [2 x i8], ptr addrspace(3) %114, i64 %43
  %117 = getelementptr [2 x i8], ptr addrspace(3) %114, i64 %45
  %118 = getelementptr [2 x i8], ptr addrspace(3) %114, i64 %47
  %119 = getelementptr i8, ptr addrspace(3) %108, i64 1224
  %120 = getelementptr [2 x i8], ptr addrspace(3) %119, i64 %41
  %121 = getelementptr [2 x i8], ptr addrspace(3) %119, i64 %43
  %122 = getelementptr [2 x i8], ptr addrspace(3) %119, i64 %45
  %123 = getelementptr [2 x i8], ptr addrspace(3) %119, i64 %47
  %.idx47 = mul nuw nsw i64 %37, 136
  %124 = getelementptr i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @__dynamic_shared_memory__, i64 9216), i64 %.idx47
  %125 = getelementptr [2 x i8], ptr addrspace(3) %124, i64 %41
  %126 = getelementptr [2 x i8], ptr addrspace(3) %124, i64 %43
  %127 = getelementptr [2 x i8], ptr addrspace(3) %124, i64 %45
  %128 = getelementptr [2 x i8], ptr addrspace(3) %124, i64 %47
  %129 = getelementptr i8, ptr addrspace(3) %108, i64 2312
  %130 = getelementptr [2 x i8], ptr addrspace(3) %129, i64 %41
  %131 = getelementptr [2 x i8], ptr addrspace(3) %129, i64 %43
  %132 = getelementptr [2 x i8], ptr addrspace(3) %129, i64 %45
  %133 = getelementptr [2 x i8], ptr addrspace(3) %129, i64 %47
  %.idx48 = mul nuw nsw i64 %39, 136
  %134 = getelementptr i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @__dynamic_shared_memory__, i64 9216), i64 %.idx48
  %135 = getelementptr [2 x i8], ptr addrspace(3) %134, i64 %41
  %136 = getelementptr [2 x i8], ptr addrspace(3) %134, i64 %43
  %137 = getelementptr [2 x i8], ptr addrspace(3) %134, i64 %45
  %138 = getelementptr [2 x i8], ptr addrspace(3) %134, i64 %47
  %139 = getelementptr i8, ptr addrspace(3) %108, i64 3400
  %140 = getelementptr [2 x i8], ptr addrspace(3) %139, i64 %41
  %141 = getelementptr [2 x i8], ptr addrspace(3) %139, i64 %43
  %142 = getelementptr [2 x i8], ptr addrspace(3) %139, i64 %45
  %143 = getelementptr [2 x i8], ptr addrspace(3) %139, i64 %47
  br label %144

144:                                              ; preds = %3, %144
  %145 = phi <2 x float> [ zeroinitializer, %3 ], [ %432, %144 ]
  %146 = phi <2 x float> [ zeroinitializer, %3 ], [ %428, %144 ]
  %147 = phi <2 x float> [ zeroinitializer, %3 ], [ %441, %144 ]
  %148 = phi <2 x float> [ zeroinitializer, %3 ], [ %437, %144 ]
  %149 = phi <2 x float> [ zeroinitializer, %3 ], [ %450, %144 ]
  %150 = phi <2 x float> [ zeroinitializer, %3 ], [ %446, %144 ]
  %151 = phi <2 x float> [ zeroinitializer, %3 ], [ %459, %144 ]
  %152 = phi <2 x float> [ zeroinitializer, %3 ], [ %455, %144 ]
  %153 = phi <2 x float> [ zeroinitializer, %3 ], [ %468, %144 ]
  %154 = phi <2 x float> [ zeroinitializer, %3 ], [ %464, %144 ]
  %155 = phi <2 x float> [ zeroinitializer, %3 ], [ %477, %144 ]
  %156 = phi <2 x float> [ zeroinitializer, %3 ], [ %473, %144 ]
  %157 = phi <2 x float> [ zeroinitializer, %3 ], [ %486, %144 ]
  %158 = phi <2 x float> [ zeroinitializer, %3 ], [ %482, %144 ]
  %159 = phi <2 x float> [ zeroinitializer, %3 ], [ %495, %144 ]
  %160 = phi <2 x float> [ zeroinitializer, %3 ], [ %491, %144 ]
  %161 = phi <2 x float> [ zeroinitializer, %3 ], [ %504, %144 ]
  %162 = phi <2 x float> [ zeroinitializer, %3 ], [ %500, %144 ]
  %163 = phi <2 x float> [ zeroinitializer, %3 ], [ %513, %144 ]
  %164 = phi <2 x float> [ zeroinitializer, %3 ], [ %509, %144 ]
  %165 = phi <2 x float> [ zeroinitializer, %3 ], [ %522, %144 ]
  %166 = phi <2 x float> [ zeroinitializer, %3 ], [ %518, %144 ]
  %167 = phi <2 x float> [ zeroinitializer, %3 ], [ %531, %144 ]
  %168 = phi <2 x float> [ zeroinitializer, %3 ], [ %527, %144 ]
  %169 = phi <2 x float> [ zeroinitializer, %3 ], [ %540, %144 ]
  %170 = phi <2 x float> [ zeroinitializer, %3 ], [ %536, %144 ]
  %171 = phi <2 x float> [ zeroinitializer, %3 ], [ %549, %144 ]
  %172 = phi <2 x float> [ zeroinitializer, %3 ], [ %545, %144 ]
  %173 = phi <2 x float> [ zeroinitializer, %3 ], [ %558, %144 ]
  %174 = phi <2 x float> [ zeroinitializer, %3 ], [ %554, %144 ]
  %175 = phi <2 x float> [ zeroinitializer, %3 ], [ %567, %144 ]
  %176 = phi <2 x float> [ zeroinitializer, %3 ], [ %563, %144 ]
  %177 = phi i32 [ 0, %3 ], [ %568, %144 ]
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %178 = shl nuw nsw i32 %177, 4
  %179 = or disjoint i32 %178, %18
  %narrow9 = add nuw nsw i32 %179, %narrow8
  %180 = zext nneg i32 %narrow9 to i64
  %181 = getelementptr [2 x i8], ptr addrspace(1) %0, i64 %180
  %182 = load <8 x half>, ptr addrspace(1) %181, align 16
  store <8 x half> %182, ptr addrspace(3) %49, align 8
  %narrow13 = add nuw nsw i32 %179, %narrow12
  %183 = zext nneg i32 %narrow13 to i64
  %184 = getelementptr [2 x i8], ptr addrspace(1) %0, i64 %183
  %185 = load <8 x half>, ptr addrspace(1) %184, align 16
  store <8 x half> %185, ptr addrspace(3) %51, align 8
  %narrow17 = add nuw nsw i32 %179, %narrow16
  %186 = zext nneg i32 %narrow17 to i64
  %187 = getelementptr [2 x i8], ptr addrspace(1) %0, i64 %186
  %188 = load <8 x half>, ptr addrspace(1) %187, align 16
  store <8 x half> %188, ptr addrspace(3) %53, align 8
  %narrow21 = add nuw nsw i32 %179, %narrow20
  %189 = zext nneg i32 %narrow21 to i64
  %190 = getelementptr [2 x i8], ptr addrspace(1) %0, i64 %189
  %191 = load <8 x half>, ptr addrspace(1) %190, align 16
  store <8 x half> %191, ptr addrspace(3) %55, align 8
  %192 = or disjoint i32 %178, %15
  %narrow24 = mul nuw nsw i32 %192, 10240
  %narrow25 = add nuw nsw i32 %narrow24, %31
  %193 = zext nneg i32 %narrow25 to i64
  %194 = getelementptr [2 x i8], ptr addrspace(1) %1, i64 %193
  %195 = load <8 x half>, ptr addrspace(1) %194, align 16
  store <8 x half> %195, ptr addrspace(3) %57, align 8
  %196 = or disjoint i32 %178, %16
  %narrow28 = mul nuw nsw i32 %196, 10240
  %narrow29 = add nuw nsw i32 %narrow28, %31
  %197 = zext nneg i32 %narrow29 to i64
  %198 = getelementptr [2 x i8], ptr addrspace(1) %1, i64 %197
  %199 = load <8 x half>, ptr addrspace(1) %198, align 16
  store <8 x half> %199, ptr addrspace(3) %59, align 8
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %200 = load <2 x half>, ptr addrspace(3) %62, align 4
  %201 = load <2 x half>, ptr addrspace(3) %63, align 4
  %202 = load <2 x half>, ptr addrspace(3) %64, align 4
  %203 = load <2 x half>, ptr addrspace(3) %65, align 4
  %204 = load <2 x half>, ptr addrspace(3) %67, align 4
  %205 = load <2 x half>, ptr addrspace(3) %68, align 4
  %206 = load <2 x half>, ptr addrspace(3) %69, align 4
  %207 = load <2 x half>, ptr addrspace(3) %70, align 4
  %208 = load <2 x half>, ptr addrspace(3) %72, align 4
  %209 = load <2 x half>, ptr addrspace(3) %73, align 4
  %210 = load <2 x half>, ptr addrspace(3) %74, align 4
  %211 = load <2 x half>, ptr addrspace(3) %75, align 4
  %212 = load <2 x half>, ptr addrspace(3) %77, align 4
  %213 = load <2 x half>, ptr addrspace(3) %78, align 4
  %214 = load <2 x half>, ptr addrspace(3) %79, align 4
  %215 = load <2 x half>, ptr addrspace(3) %80, align 4
  %216 = load <2 x half>, ptr addrspace(3) %82, align 4
  %217 = load <2 x half>, ptr addrspace(3) %83, align 4
  %218 = load <2 x half>, ptr addrspace(3) %84, align 4
  %219 = load <2 x half>, ptr addrspace(3) %85, align 4
  %220 = load <2 x half>, ptr addrspace(3) %87, align 4
  %221 = load <2 x half>, ptr addrspace(3) %88, align 4
  %222 = load <2 x half>, ptr addrspace(3) %89, align 4
  %223 = load <2 x half>, ptr addrspace(3) %90, align 4
  %224 = load <2 x half>, ptr addrspace(3) %92, align 4
  %225 = load <2 x half>, ptr addrspace(3) %93, align 4
  %226 = load <2 x half>, ptr addrspace(3) %94, align 4
  %227 = load <2 x half>, ptr addrspace(3) %95, align 4
  %228 = load <2 x half>, ptr addrspace(3) %97, align 4
  %229 = load <2 x half>, ptr addrspace(3) %98, align 4
  %230 = load <2 x half>, ptr addrspace(3) %99, align 4
  %231 = load <2 x half>, ptr addrspace(3) %100, align 4
  %232 = load <1 x half>, ptr addrspace(3) %102, align 2
  %233 = load <1 x half>, ptr addrspace(3) %103, align 2
  %234 = load <1 x half>, ptr addrspace(3) %104, align 2
  %235 = load <1 x half>, ptr addrspace(3) %105, align 2
  %236 = load <1 x half>, ptr addrspace(3) %110, align 2
  %237 = load <1 x half>, ptr addrspace(3) %111, align 2
  %238 = load <1 x half>, ptr addrspace(3) %112, align 2
  %239 = load <1 x half>, ptr addrspace(3) %113, align 2
  %240 = load <1 x half>, ptr addrspace(3) %115, align 2
  %241 = load <1 x half>, ptr addrspace(3) %116, align 2
  %242 = load <1 x half>, ptr addrspace(3) %117, align 2
  %243 = load <1 x half>, ptr addrspace(3) %118, align 2
  %244 = load <1 x half>, ptr addrspace(3) %120, align 2
  %245 = load <1 x half>, ptr addrspace(3) %121, align 2
  %246 = load <1 x half>, ptr addrspace(3) %122, align 2
  %247 = load <1 x half>, ptr addrspace(3) %123, align 2
  %248 = load <1 x half>, ptr addrspace(3) %125, align 2
  %249 = load <1 x half>, ptr addrspace(3) %126, align 2
  %250 = load <1 x half>, ptr addrspace(3) %127, align 2
  %251 = load <1 x half>, ptr addrspace(3) %128, align 2
  %252 = load <1 x half>, ptr addrspace(3) %130, align 2
  %253 = load <1 x half>, ptr addrspace(3) %131, align 2
  %254 = load <1 x half>, ptr addrspace(3) %132, align 2
  %255 = load <1 x half>, ptr addrspace(3) %133, align 2
  %256 = load <1 x half>, ptr addrspace(3) %135, align 2
  %257 = load <1 x half>, ptr addrspace(3) %136, align 2
  %258 = load <1 x half>, ptr addrspace(3) %137, align 2
  %259 = load <1 x half>, ptr addrspace(3) %138, align 2
  %260 = load <1 x half>, ptr addrspace(3) %140, align 2
  %261 = load <1 x half>, ptr addrspace(3) %141, align 2
  %262 = load <1 x half>, ptr addrspace(3) %142, align 2
  %263 = load <1 x half>, ptr addrspace(3) %143, align 2
  %264 = shufflevector <1 x half> %232, <1 x half> %236, <2 x i32> <i32 0, i32 1>
  %265 = shufflevector <1 x half> %240, <1 x half> %244, <2 x i32> <i32 0, i32 1>
  %266 = shufflevector <1 x half> %233, <1 x half> %237, <2 x i32> <i32 0, i32 1>
  %267 = shufflevector <1 x half> %241, <1 x half> %245, <2 x i32> <i32 0, i32 1>
  %268 = shufflevector <1 x half> %234, <1 x half> %238, <2 x i32> <i32 0, i32 1>
  %269 = shufflevector <1 x half> %242, <1 x half> %246, <2 x i32> <i32 0, i32 1>
  %270 = shufflevector <1 x half> %235, <1 x half> %239, <2 x i32> <i32 0, i32 1>
  %271 = shufflevector <1 x half> %243, <1 x half> %247, <2 x i32> <i32 0, i32 1>
  %272 = shufflevector <1 x half> %248, <1 x half> %252, <2 x i32> <i32 0, i32 1>
  %273 = shufflevector <1 x half> %256, <1 x half> %260, <2 x i32> <i32 0, i32 1>
  %274 = shufflevector <1 x half> %249, <1 x half> %253, <2 x i32> <i32 0, i32 1>
  %275 = shufflevector <1 x half> %257, <1 x half> %261, <2 x i32> <i32 0, i32 1>
  %276 = shufflevector <1 x half> %250, <1 x half> %254, <2 x i32> <i32 0, i32 1>
  %277 = shufflevector <1 x half> %258, <1 x half> %262, <2 x i32> <i32 0, i32 1>
  %278 = shufflevector <1 x half> %251, <1 x half> %255, <2 x i32> <i32 0, i32 1>
  %279 = shufflevector <1 x half> %259, <1 x half> %263, <2 x i32> <i32 0, i32 1>
  %280 = extractelement <2 x float> %146, i64 0
  %281 = extractelement <2 x float> %146, i64 1
  %282 = extractelement <2 x float> %145, i64 0
  %283 = extractelement <2 x float> %145, i64 1
  %284 = tail call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half> %200, <2 x half> %204, <2 x half> %201, <2 x half> %205, <2 x half> %264, <2 x half> %265, float %280, float %281, float %282, float %283)
  %285 = extractvalue { float, float, float, float } %284, 0
  %286 = extractvalue { float, float, float, float } %284, 1
  %287 = extractvalue { float, float, float, float } %284, 2
  %288 = extractvalue { float, float, float, float } %284, 3
  %289 = extractelement <2 x float> %148, i64 0
  %290 = extractelement <2 x float> %148, i64 1
  %291 = extractelement <2 x float> %147, i64 0
  %292 = extractelement <2 x float> %147, i64 1
  %293 = tail call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half> %200, <2 x half> %204, <2 x half> %201, <2 x half> %205, <2 x half> %266, <2 x half> %267, float %289, float %290, float %291, float %292)
  %294 = extractvalue { float, float, float, float } %293, 0
  %295 = extractvalue { float, float, float, float } %293, 1
  %296 = extractvalue { float, float, float, float } %293, 2
  %297 = extractvalue { float, float, float, float } %293, 3
  %298 = extractelement <2 x float> %150, i64 0
  %299 = extractelement <2 x float> %150, i64 1
  %300 = extractelement <2 x float> %149, i64 0
  %301 = extractelement <2 x float> %149, i64 1
  %302 = tail call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half> %200, <2 x half> %204, <2 x half> %201, <2 x half> %205, <2 x half> %268, <2 x half> %269, float %298, float %299, float %300, float %301)
  %303 = extractvalue { float, float, float, float } %302, 0
  %304 = extractvalue { float, float, float, float } %302, 1
  %305 = extractvalue { float, float, float, float } %302, 2
  %306 = extractvalue { float, float, float, float } %302, 3
  %307 = extractelement <2 x float> %152, i64 0
  %308 = extractelement <2 x float> %152, i64 1
  %309 = extractelement <2 x float> %151, i64 0
  %310 = extractelement <2 x float> %151, i64 1
  %311 = tail call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half> %200, <2 x half> %204, <2 x half> %201, <2 x half> %205, <2 x half> %270, <2 x half> %271, float %307, float %308, float %309, float %310)
  %312 = extractvalue { float, float, float, float } %311, 0
  %313 = extractvalue { float, float, float, float } %311, 1
  %314 = extractvalue { float, float, float, float } %311, 2
  %315 = extractvalue { float, float, float, float } %311, 3
  %316 = extractelement <2 x float> %154, i64 0
  %317 = extractelement <2 x float> %154, i64 1
  %318 = extractelement <2 x float> %153, i64 0
  %319 = extractelement <2 x float> %153, i64 1
  %320 = tail call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half> %208, <2 x half> %212, <2 x half> %209, <2 x half> %213, <2 x half> %264, <2 x half> %265, float %316, float %317, float %318, float %319)
  %321 = extractvalue { float, float, float, float } %320, 0
  %322 = extractvalue { float, float, float, float } %320, 1
  %323 = extractvalue { float, float, float, float } %320, 2
  %324 = extractvalue { float, float, float, float } %320, 3
  %325 = extractelement <2 x float> %156, i64 0
  %326 = extractelement <2 x float> %156, i64 1
  %327 = extractelement <2 x float> %155, i64 0
  %328 = extractelement <2 x float> %155, i64 1
  %329 = tail call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half> %208, <2 x half> %212, <2 x half> %209, <2 x half> %213, <2 x half> %266, <2 x half> %267, float %325, float %326, float %327, float %328)
  %330 = extractvalue { float, float, float, float } %329, 0
  %331 = extractvalue { float, float, float, float } %329, 1
  %332 = extractvalue { float, float, float, float } %329, 2
  %333 = extractvalue { float, float, float, float } %329, 3
  %334 = extractelement <2 x float> %158, i64 0
  %335 = extractelement <2 x float> %158, i64 1
  %336 = extractelement <2 x float> %157, i64 0
  %337 = extractelement <2 x float> %157, i64 1
  %338 = tail call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half> %208, <2 x half> %212, <2 x half> %209, <2 x half> %213, <2 x half> %268, <2 x half> %269, float %334, float %335, float %336, float %337)
  %339 = extractvalue { float, float, float, float } %338, 0
  %340 = extractvalue { float, float, float, float } %338, 1
  %341 = extractvalue { float, float, float, float } %338, 2
  %342 = extractvalue { float, float, float, float } %338, 3
  %343 = extractelement <2 x float> %160, i64 0
  %344 = extractelement <2 x float> %160, i64 1
  %345 = extractelement <2 x float> %159, i64 0
  %346 = extractelement <2 x float> %159, i64 1
  %347 = tail call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half> %208, <2 x half> %212, <2 x half> %209, <2 x half> %213, <2 x half> %270, <2 x half> %271, float %343, float %344, float %345, float %346)
  %348 = extractvalue { float, float, float, float } %347, 0
  %349 = extractvalue { float, float, float, float } %347, 1
  %350 = extractvalue { float, float, float, float } %347, 2
  %351 = extractvalue { float, float, float, float } %347, 3
  %352 = extractelement <2 x float> %162, i64 0
  %353 = extractelement <2 x float> %162, i64 1
  %354 = extractelement <2 x float> %161, i64 0
  %355 = extractelement <2 x float> %161, i64 1
  %356 = tail call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half> %216, <2 x half> %220, <2 x half> %217, <2 x half> %221, <2 x half> %264, <2 x half> %265, float %352, float %353, float %354, float %355)
  %357 = extractvalue { float, float, float, float } %356, 0
  %358 = extractvalue { float, float, float, float } %356, 1
  %359 = extractvalue { float, float, float, float } %356, 2
  %360 = extractvalue { float, float, float, float } %356, 3
  %361 = extractelement <2 x float> %164, i64 0
  %362 = extractelement <2 x float> %164, i64 1
  %363 = extractelement <2 x float> %163, i64 0
  %364 = extractelement <2 x float> %163, i64 1
  %365 = tail call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half> %216, <2 x half> %220, <2 x half> %217, <2 x half> %221, <2 x half> %266, <2 x half> %267, float %361, float %362, float %363, float %364)
  %366 = extractvalue { float, float, float, float } %365, 0
  %367 = extractvalue { float, float, float, float } %365, 1
  %368 = extractvalue { float, float, float, float } %365, 2
  %369 = extractvalue { float, float, float, float } %365, 3
  %370 = extractelement <2 x float> %166, i64 0
  %371 = extractelement <2 x float> %166, i64 1
  %372 = extractelement <2 x float> %165, i64 0
  %373 = extractelement <2 x float> %165, i64 1
  %374 = tail call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half> %216, <2 x half> %220, <2 x half> %217, <2 x half> %221, <2 x half> %268, <2 x half> %269, float %370, float %371, float %372, float %373)
  %375 = extractvalue { float, float, float, float } %374, 0
  %376 = extractvalue { float, float, float, float } %374, 1
  %377 = extractvalue { float, float, float, float } %374, 2
  %378 = extractvalue { float, float, float, float } %374, 3
  %379 = extractelement <2 x float> %168, i64 0
  %380 = extractelement <2 x float> %168, i64 1
  %381 = extractelement <2 x float> %167, i64 0
  %382 = extractelement <2 x float> %167, i64 1
  %383 = tail call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half> %216, <2 x half> %220, <2 x half> %217, <2 x half> %221, <2 x half> %270, <2 x half> %271, float %379, float %380, float %381, float %382)
  %384 = extractvalue { float, float, float, float } %383, 0
  %385 = extractvalue { float, float, float, float } %383, 1
  %386 = extractvalue { float, float, float, float } %383, 2
  %387 = extractvalue { float, float, float, float } %383, 3
  %388 = extractelement <2 x float> %170, i64 0
  %389 = extractelement <2 x float> %170, i64 1
  %390 = extractelement <2 x float> %169, i64 0
  %391 = extractelement <2 x float> %169, i64 1
  %392 = tail call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half> %224, <2 x half> %228, <2 x half> %225, <2 x half> %229, <2 x half> %264, <2 x half> %265, float %388, float %389, float %390, float %391)
  %393 = extractvalue { float, float, float, float } %392, 0
  %394 = extractvalue { float, float, float, float } %392, 1
  %395 = extractvalue { float, float, float, float } %392, 2
  %396 = extractvalue { float, float, float, float } %392, 3
  %397 = extractelement <2 x float> %172, i64 0
  %398 = extractelement <2 x float> %172, i64 1
  %399 = extractelement <2 x float> %171, i64 0
  %400 = extractelement <2 x float> %171, i64 1
  %401 = tail call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half> %224, <2 x half> %228, <2 x half> %225, <2 x half> %229, <2 x half> %266, <2 x half> %267, float %397, float %398, float %399, float %400)
  %402 = extractvalue { float, float, float, float } %401, 0
  %403 = extractvalue { float, float, float, float } %401, 1
  %404 = extractvalue { float, float, float, float } %401, 2
  %405 = extractvalue { float, float, float, float } %401, 3
  %406 = extractelement <2 x float> %174, i64 0
  %407 = extractelement <2 x float> %174, i64 1
  %408 = extractelement <2 x float> %173, i64 0
  %409 = extractelement <2 x float> %173, i64 1
  %410 = tail call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half> %224, <2 x half> %228, <2 x half> %225, <2 x half> %229, <2 x half> %268, <2 x half> %269, float %406, float %407, float %408, float %409)
  %411 = extractvalue { float, float, float, float } %410, 0
  %412 = extractvalue { float, float, float, float } %410, 1
  %413 = extractvalue { float, float, float, float } %410, 2
  %414 = extractvalue { float, float, float, float } %410, 3
  %415 = extractelement <2 x float> %176, i64 0
  %416 = extractelement <2 x float> %176, i64 1
  %417 = extractelement <2 x float> %175, i64 0
  %418 = extractelement <2 x float> %175, i64 1
  %419 = tail call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half> %224, <2 x half> %228, <2 x half> %225, <2 x half> %229, <2 x half> %270, <2 x half> %271, float %415, float %416, float %417, float %418)
  %420 = extractvalue { float, float, float, float } %419, 0
  %421 = extractvalue { float, float, float, float } %419, 1
  %422 = extractvalue { float, float, float, float } %419, 2
  %423 = extractvalue { float, float, float, float } %419, 3
  %424 = tail call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half> %202, <2 x half> %206, <2 x half> %203, <2 x half> %207, <2 x half> %272, <2 x half> %273, float %285, float %286, float %287, float %288)
  %425 = extractvalue { float, float, float, float } %424, 0
  %426 = extractvalue { float, float, float, float } %424, 1
  %427 = insertelement <2 x float> poison, float %425, i64 0
  %428 = insertelement <2 x float> %427, float %426, i64 1
  %429 = extractvalue { float, float, float, float } %424, 2
  %430 = extractvalue { float, float, float, float } %424, 3
  %431 = insertelement <2 x float> poison, float %429, i64 0
  %432 = insertelement <2 x float> %431, float %430, i64 1
  %433 = tail call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half> %202, <2 x half> %206, <2 x half> %203, <2 x half> %207, <2 x half> %274, <2 x half> %275, float %294, float %295, float %296, float %297)
  %434 = extractvalue { float, float, float, float } %433, 0
  %435 = extractvalue { float, float, float, float } %433, 1
  %436 = insertelement <2 x float> poison, float %434, i64 0
  %437 = insertelement <2 x float> %436, float %435, i64 1
  %438 = extractvalue { float, float, float, float } %433, 2
  %439 = extractvalue { float, float, float, float } %433, 3
  %440 = insertelement <2 x float> poison, float %438, i64 0
  %441 = insertelement <2 x float> %440, float %439, i64 1
  %442 = tail call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half> %202, <2 x half> %206, <2 x half> %203, <2 x half> %207, <2 x half> %276, <2 x half> %277, float %303, float %304, float %305, float %306)
  %443 = extractvalue { float, float, float, float } %442, 0
  %444 = extractvalue { float, float, float, float } %442, 1
  %445 = insertelement <2 x float> poison, float %443, i64 0
  %446 = insertelement <2 x float> %445, float %444, i64 1
  %447 = extractvalue { float, float, float, float } %442, 2
  %448 = extractvalue { float, float, float, float } %442, 3
  %449 = insertelement <2 x float> poison, float %447, i64 0
  %450 = insertelement <2 x float> %449, float %448, i64 1
  %451 = tail call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half> %202, <2 x half> %206, <2 x half> %203, <2 x half> %207, <2 x half> %278, <2 x half> %279, float %312, float %313, float %314, float %315)
  %452 = extractvalue { float, float, float, float } %451, 0
  %453 = extractvalue { float, float, float, float } %451, 1
  %454 = insertelement <2 x float> poison, float %452, i64 0
  %455 = insertelement <2 x float> %454, float %453, i64 1
  %456 = extractvalue { float, float, float, float } %451, 2
  %457 = extractvalue { float, float, float, float } %451, 3
  %458 = insertelement <2 x float> poison, float %456, i64 0
  %459 = insertelement <2 x float> %458, float %457, i64 1
  %460 = tail call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half> %210, <2 x half> %214, <2 x half> %211, <2 x half> %215, <2 x half> %272, <2 x half> %273, float %321, float %322, float %323, float %324)
  %461 = extractvalue { float, float, float, float } %460, 0
  %462 = extractvalue { float, float, float, float } %460, 1
  %463 = insertelement <2 x float> poison, float %461, i64 0
  %464 = insertelement <2 x float> %463, float %462, i64 1
  %465 = extractvalue { float, float, float, float } %460, 2
  %466 = extractvalue { float, float, float, float } %460, 3
  %467 = insertelement <2 x float> poison, float %465, i64 0
  %468 = insertelement <2 x float> %467, float %466, i64 1
  %469 = tail call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half> %210, <2 x half> %214, <2 x half> %211, <2 x half> %215, <2 x half> %274, <2 x half> %275, float %330, float %331, float %332, float %333)
  %470 = extractvalue { float, float, float, float } %469, 0
  %471 = extractvalue { float, float, float, float } %469, 1
  %472 = insertelement <2 x float> poison, float %470, i64 0
  %473 = insertelement <2 x float> %472, float %471, i64 1
  %474 = extractvalue { float, float, float, float } %469, 2
  %475 = extractvalue { float, float, float, float } %469, 3
  %476 = insertelement <2 x float> poison, float %474, i64 0
  %477 = insertelement <2 x float> %476, float %475, i64 1
  %478 = tail call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half> %210, <2 x half> %214, <2 x half> %211, <2 x half> %215, <2 x half> %276, <2 x half> %277, float %339, float %340, float %341, float %342)
  %479 = extractvalue { float, float, float, float } %478, 0
  %480 = extractvalue { float, float, float, float } %478, 1
  %481 = insertelement <2 x float> poison, float %479, i64 0
  %482 = insertelement <2 x float> %481, float %480, i64 1
  %483 = extractvalue { float, float, float, float } %478, 2
  %484 = extractvalue { float, float, float, float } %478, 3
  %485 = insertelement <2 x float> poison, float %483, i64 0
  %486 = insertelement <2 x float> %485, float %484, i64 1
  %487 = tail call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half> %210, <2 x half> %214, <2 x half> %211, <2 x half> %215, <2 x half> %278, <2 x half> %279, float %348, float %349, float %350, float %351)
  %488 = extractvalue { float, float, float, float } %487, 0
  %489 = extractvalue { float, float, float, float } %487, 1
  %490 = insertelement <2 x float> poison, float %488, i64 0
  %491 = insertelement <2 x float> %490, float %489, i64 1
  %492 = extractvalue { float, float, float, float } %487, 2
  %493 = extractvalue { float, float, float, float } %487, 3
  %494 = insertelement <2 x float> poison, float %492, i64 0
  %495 = insertelement <2 x float> %494, float %493, i64 1
  %496 = tail call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half> %218, <2 x half> %222, <2 x half> %219, <2 x half> %223, <2 x half> %272, <2 x half> %273, float %357, float %358, float %359, float %360)
  %497 = extractvalue { float, float, float, float } %496, 0
  %498 = extractvalue { float, float, float, float } %496, 1
  %499 = insertelement <2 x float> poison, float %497, i64 0
  %500 = insertelement <2 x float> %499, float %498, i64 1
  %501 = extractvalue { float, float, float, float } %496, 2
  %502 = extractvalue { float, float, float, float } %496, 3
  %503 = insertelement <2 x float> poison, float %501, i64 0
  %504 = insertelement <2 x float> %503, float %502, i64 1
  %505 = tail call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half> %218, <2 x half> %222, <2 x half> %219, <2 x half> %223, <2 x half> %274, <2 x half> %275, float %366, float %367, float %368, float %369)
  %506 = extractvalue { float, float, float, float } %505, 0
  %507 = extractvalue { float, float, float, float } %505, 1
  %508 = insertelement <2 x float> poison, float %506, i64 0
  %509 = insertelement <2 x float> %508, float %507, i64 1
  %510 = extractvalue { float, float, float, float } %505, 2
  %511 = extractvalue { float, float, float, float } %505, 3
  %512 = insertelement <2 x float> poison, float %510, i64 0
  %513 = insertelement <2 x float> %512, float %511, i64 1
  %514 = tail call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half> %218, <2 x half> %222, <2 x half> %219, <2 x half> %223, <2 x half> %276, <2 x half> %277, float %375, float %376, float %377, float %378)
  %515 = extractvalue { float, float, float, float } %514, 0
  %516 = extractvalue { float, float, float, float } %514, 1
  %517 = insertelement <2 x float> poison, float %515, i64 0
  %518 = insertelement <2 x float> %517, float %516, i64 1
  %519 = extractvalue { float, float, float, float } %514, 2
  %520 = extractvalue { float, float, float, float } %514, 3
  %521 = insertelement <2 x float> poison, float %519, i64 0
  %522 = insertelement <2 x float> %521, float %520, i64 1
  %523 = tail call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half> %218, <2 x half> %222, <2 x half> %219, <2 x half> %223, <2 x half> %278, <2 x half> %279, float %384, float %385, float %386, float %387)
  %524 = extractvalue { float, float, float, float } %523, 0
  %525 = extractvalue { float, float, float, float } %523, 1
  %526 = insertelement <2 x float> poison, float %524, i64 0
  %527 = insertelement <2 x float> %526, float %525, i64 1
  %528 = extractvalue { float, float, float, float } %523, 2
  %529 = extractvalue { float, float, float, float } %523, 3
  %530 = insertelement <2 x float> poison, float %528, i64 0
  %531 = insertelement <2 x float> %530, float %529, i64 1
  %532 = tail call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half> %226, <2 x half> %230, <2 x half> %227, <2 x half> %231, <2 x half> %272, <2 x half> %273, float %393, float %394, float %395, float %396)
  %533 = extractvalue { float, float, float, float } %532, 0
  %534 = extractvalue { float, float, float, float } %532, 1
  %535 = insertelement <2 x float> poison, float %533, i64 0
  %536 = insertelement <2 x float> %535, float %534, i64 1
  %537 = extractvalue { float, float, float, float } %532, 2
  %538 = extractvalue { float, float, float, float } %532, 3
  %539 = insertelement <2 x float> poison, float %537, i64 0
  %540 = insertelement <2 x float> %539, float %538, i64 1
  %541 = tail call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half> %226, <2 x half> %230, <2 x half> %227, <2 x half> %231, <2 x half> %274, <2 x half> %275, float %402, float %403, float %404, float %405)
  %542 = extractvalue { float, float, float, float } %541, 0
  %543 = extractvalue { float, float, float, float } %541, 1
  %544 = insertelement <2 x float> poison, float %542, i64 0
  %545 = insertelement <2 x float> %544, float %543, i64 1
  %546 = extractvalue { float, float, float, float } %541, 2
  %547 = extractvalue { float, float, float, float } %541, 3
  %548 = insertelement <2 x float> poison, float %546, i64 0
  %549 = insertelement <2 x float> %548, float %547, i64 1
  %550 = tail call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half> %226, <2 x half> %230, <2 x half> %227, <2 x half> %231, <2 x half> %276, <2 x half> %277, float %411, float %412, float %413, float %414)
  %551 = extractvalue { float, float, float, float } %550, 0
  %552 = extractvalue { float, float, float, float } %550, 1
  %553 = insertelement <2 x float> poison, float %551, i64 0
  %554 = insertelement <2 x float> %553, float %552, i64 1
  %555 = extractvalue { float, float, float, float } %550, 2
  %556 = extractvalue { float, float, float, float } %550, 3
  %557 = insertelement <2 x float> poison, float %555, i64 0
  %558 = insertelement <2 x float> %557, float %556, i64 1
  %559 = tail call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half> %226, <2 x half> %230, <2 x half> %227, <2 x half> %231, <2 x half> %278, <2 x half> %279, float %420, float %421, float %422, float %423)
  %560 = extractvalue { float, float, float, float } %559, 0
  %561 = extractvalue { float, float, float, float } %559, 1
  %562 = insertelement <2 x float> poison, float %560, i64 0
  %563 = insertelement <2 x float> %562, float %561, i64 1
  %564 = extractvalue { float, float, float, float } %559, 2
  %565 = extractvalue { float, float, float, float } %559, 3
  %566 = insertelement <2 x float> poison, float %564, i64 0
  %567 = insertelement <2 x float> %566, float %565, i64 1
  %568 = add nuw nsw i32 %177, 2
  %569 = icmp samesign ult i32 %177, 78
  br i1 %569, label %144, label %570

570:                                              ; preds = %144
  %571 = or disjoint i32 %33, %24
  %572 = or disjoint i32 %9, %5
  %573 = or disjoint i32 %572, %30
  %574 = zext nneg i32 %573 to i64
  %narrow = mul nuw nsw i32 %571, 10240
  %575 = zext nneg i32 %narrow to i64
  %576 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %575
  %577 = getelementptr [4 x i8], ptr addrspace(1) %576, i64 %574
  store <2 x float> %428, ptr addrspace(1) %577, align 8
  %578 = or disjoint i32 %573, 8
  %579 = zext nneg i32 %578 to i64
  %580 = getelementptr [4 x i8], ptr addrspace(1) %576, i64 %579
  store <2 x float> %437, ptr addrspace(1) %580, align 8
  %581 = or disjoint i32 %573, 16
  %582 = zext nneg i32 %581 to i64
  %583 = getelementptr [4 x i8], ptr addrspace(1) %576, i64 %582
  store <2 x float> %446, ptr addrspace(1) %583, align 8
  %584 = or disjoint i32 %573, 24
  %585 = zext nneg i32 %584 to i64
  %586 = getelementptr [4 x i8], ptr addrspace(1) %576, i64 %585
  store <2 x float> %455, ptr addrspace(1) %586, align 8
  %587 = getelementptr i8, ptr addrspace(1) %576, i64 327680
  %588 = getelementptr [4 x i8], ptr addrspace(1) %587, i64 %574
  store <2 x float> %432, ptr addrspace(1) %588, align 8
  %589 = getelementptr [4 x i8], ptr addrspace(1) %587, i64 %579
  store <2 x float> %441, ptr addrspace(1) %589, align 8
  %590 = getelementptr [4 x i8], ptr addrspace(1) %587, i64 %582
  store <2 x float> %450, ptr addrspace(1) %590, align 8
  %591 = getelementptr [4 x i8], ptr addrspace(1) %587, i64 %585
  store <2 x float> %459, ptr addrspace(1) %591, align 8
  %592 = getelementptr i8, ptr addrspace(1) %576, i64 655360
  %593 = getelementptr [4 x i8], ptr addrspace(1) %592, i64 %574
  store <2 x float> %464, ptr addrspace(1) %593, align 8
  %594 = getelementptr [4 x i8], ptr addrspace(1) %592, i64 %579
  store <2 x float> %473, ptr addrspace(1) %594, align 8
  %595 = getelementptr [4 x i8], ptr addrspace(1) %592, i64 %582
  store <2 x float> %482, ptr addrspace(1) %595, align 8
  %596 = getelementptr [4 x i8], ptr addrspace(1) %592, i64 %585
  store <2 x float> %491, ptr addrspace(1) %596, align 8
  %597 = getelementptr i8, ptr addrspace(1) %576, i64 983040
  %598 = getelementptr [4 x i8], ptr addrspace(1) %597, i64 %574
  store <2 x float> %468, ptr addrspace(1) %598, align 8
  %599 = getelementptr [4 x i8], ptr addrspace(1) %597, i64 %579
  store <2 x float> %477, ptr addrspace(1) %599, align 8
  %600 = getelementptr [4 x i8], ptr addrspace(1) %597, i64 %582
  store <2 x float> %486, ptr addrspace(1) %600, align 8
  %601 = getelementptr [4 x i8], ptr addrspace(1) %597, i64 %585
  store <2 x float> %495, ptr addrspace(1) %601, align 8
  %602 = getelementptr i8, ptr addrspace(1) %576, i64 1310720
  %603 = getelementptr [4 x i8], ptr addrspace(1) %602, i64 %574
  store <2 x float> %500, ptr addrspace(1) %603, align 8
  %604 = getelementptr [4 x i8], ptr addrspace(1) %602, i64 %579
  store <2 x float> %509, ptr addrspace(1) %604, align 8
  %605 = getelementptr [4 x i8], ptr addrspace(1) %602, i64 %582
  store <2 x float> %518, ptr addrspace(1) %605, align 8
  %606 = getelementptr [4 x i8], ptr addrspace(1) %602, i64 %585
  store <2 x float> %527, ptr addrspace(1) %606, align 8
  %607 = getelementptr i8, ptr addrspace(1) %576, i64 1638400
  %608 = getelementptr [4 x i8], ptr addrspace(1) %607, i64 %574
  store <2 x float> %504, ptr addrspace(1) %608, align 8
  %609 = getelementptr [4 x i8], ptr addrspace(1) %607, i64 %579
  store <2 x float> %513, ptr addrspace(1) %609, align 8
  %610 = getelementptr [4 x i8], ptr addrspace(1) %607, i64 %582
  store <2 x float> %522, ptr addrspace(1) %610, align 8
  %611 = getelementptr [4 x i8], ptr addrspace(1) %607, i64 %585
  store <2 x float> %531, ptr addrspace(1) %611, align 8
  %612 = getelementptr i8, ptr addrspace(1) %576, i64 1966080
  %613 = getelementptr [4 x i8], ptr addrspace(1) %612, i64 %574
  store <2 x float> %536, ptr addrspace(1) %613, align 8
  %614 = getelementptr [4 x i8], ptr addrspace(1) %612, i64 %579
  store <2 x float> %545, ptr addrspace(1) %614, align 8
  %615 = getelementptr [4 x i8], ptr addrspace(1) %612, i64 %582
  store <2 x float> %554, ptr addrspace(1) %615, align 8
  %616 = getelementptr [4 x i8], ptr addrspace(1) %612, i64 %585
  store <2 x float> %563, ptr addrspace(1) %616, align 8
  %617 = getelementptr i8, ptr addrspace(1) %576, i64 2293760
  %618 = getelementptr [4 x i8], ptr addrspace(1) %617, i64 %574
  store <2 x float> %540, ptr addrspace(1) %618, align 8
  %619 = getelementptr [4 x i8], ptr addrspace(1) %617, i64 %579
  store <2 x float> %549, ptr addrspace(1) %619, align 8
  %620 = getelementptr [4 x i8], ptr addrspace(1) %617, i64 %582
  store <2 x float> %558, ptr addrspace(1) %620, align 8
  %621 = getelementptr [4 x i8], ptr addrspace(1) %617, i64 %585
  store <2 x float> %567, ptr addrspace(1) %621, align 8
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  ret void
}

; Function Attrs: alwaysinline mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: alwaysinline mustprogress nocallback nofree nosync nounwind willreturn memory(inaccessiblemem: write)
declare void @llvm.assume(i1 noundef) #2

; Function Attrs: alwaysinline mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: alwaysinline convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #3

; Function Attrs: alwaysinline nocallback nofree nosync nounwind memory(none)
declare { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, float, float, float, float) #4

attributes #0 = { alwaysinline norecurse nounwind "nvvm.maxntid"="128,1,1" }
attributes #1 = { alwaysinline mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { alwaysinline mustprogress nocallback nofree nosync nounwind willreturn memory(inaccessiblemem: write) }
attributes #3 = { alwaysinline convergent nocallback nounwind }
attributes #4 = { alwaysinline nocallback nofree nosync nounwind memory(none) }

!llvm.module.flags = !{!0}

!0 = !{i32 2, !"Debug Info Version", i32 3}
