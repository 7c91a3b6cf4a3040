#include "ktune/iree/hal_profile.h"

#include <gtest/gtest.h>

#include "ktune/iree/compile_model.h"
#include "ktune/iree/iree_test_fixture.h"
#include "ktune/iree/npy.h"
#include "ktune/verify/data_init.h"

namespace ktune::iree {
namespace {

// Two runs of a model with dispatches a (once per run) and b (twice per run), as iree-profile
// 3.13 prints them; plus a stderr line, an invalid event and a device event that must win over
// host spans of the same function.
const char* kEvents = R"({"type":"host_dispatch_event","key":"m_dispatch_0_matmul_8x8x8_f32","valid":true,"duration_ns":3000}
warning: something on stderr
{"type":"host_dispatch_event","key":"m_dispatch_0_matmul_8x8x8_f32","valid":true,"duration_ns":5000}
{"type":"host_dispatch_event","key":"m_dispatch_1_generic_8_f32","valid":true,"duration_ns":1000}
{"type":"host_dispatch_event","key":"m_dispatch_1_generic_8_f32","valid":true,"duration_ns":2000}
{"type":"host_dispatch_event","key":"m_dispatch_1_generic_8_f32","valid":false,"duration_ns":900000}
{"type":"host_dispatch_event","key":"m_dispatch_1_generic_8_f32","valid":true,"duration_ns":3000}
{"type":"host_dispatch_event","key":"m_dispatch_1_generic_8_f32","valid":true,"duration_ns":4000}
{"type":"dispatch_event","key":"m_dispatch_10_generic_8_f32","valid":true,"duration_ns":7000}
{"type":"host_dispatch_event","key":"m_dispatch_10_generic_8_f32","valid":true,"duration_ns":99000}
{"type":"dispatch_summary","total_dispatches":0}
)";

TEST(HalProfile, EventsAreGroupedPerFunctionAndRun) {
  const std::vector<HalDispatchTime> d = parse_dispatch_events(kEvents, 2);
  ASSERT_EQ(d.size(), 3u);
  // Slowest per run first: dispatch_1 (2.5 us x 2), dispatch_0 (4 us x 1), dispatch_10 (7 us x 0.5).
  EXPECT_EQ(d[0].function, "m_dispatch_1_generic_8_f32");
  EXPECT_EQ(d[0].calls, 4);
  EXPECT_DOUBLE_EQ(d[0].calls_per_run, 2.0);
  EXPECT_DOUBLE_EQ(d[0].median_s, 2.5e-6);
  EXPECT_DOUBLE_EQ(d[0].max_s, 4e-6);  // the invalid 900 us event is not counted
  EXPECT_DOUBLE_EQ(d[0].per_run_s(), 5e-6);
  EXPECT_EQ(d[0].source, "host");
  EXPECT_EQ(d[1].function, "m_dispatch_0_matmul_8x8x8_f32");
  EXPECT_DOUBLE_EQ(d[1].median_s, 4e-6);
  EXPECT_DOUBLE_EQ(d[1].total_s, 8e-6);
  EXPECT_EQ(d[2].source, "device");
  EXPECT_DOUBLE_EQ(d[2].median_s, 7e-6);
  EXPECT_THROW(parse_dispatch_events("{\"type\": \"dispatch_event\",", 1), std::runtime_error);
  EXPECT_TRUE(parse_dispatch_events("", 1).empty());
}

TEST(HalProfile, DispatchesAreFoundByTheirExportName) {
  HalProfile p;
  p.dispatches = parse_dispatch_events(kEvents, 2);
  ASSERT_NE(find_dispatch(p, "m_dispatch_1"), nullptr);
  EXPECT_EQ(find_dispatch(p, "m_dispatch_1")->function, "m_dispatch_1_generic_8_f32");  // not dispatch_10
  EXPECT_EQ(find_dispatch(p, "m_dispatch_10")->source, "device");
  EXPECT_EQ(find_dispatch(p, "m_dispatch_2"), nullptr);
  const HalProfile back = HalProfile::from_json(p.to_json());
  EXPECT_EQ(back.to_json(), p.to_json());
}

TEST(HalProfile, ModeFollowsTheDriver) {
  EXPECT_EQ(hal_profile_mode("local-task"), "host-execution");
  EXPECT_EQ(hal_profile_mode("local-sync"), "host-execution");
  EXPECT_EQ(hal_profile_mode("cuda://0"), "dispatch-events");
  EXPECT_EQ(hal_profile_mode("hip"), "dispatch-events");
}

using HalProfileOnIree = testing::RealIree;

// The MLP example compiled for IREE's CPU target and captured on the local-task driver: both
// matmul dispatches appear once per run with a positive time. On a driver that is not there the
// capture fails with the tool's message and no exception.
TEST_F(HalProfileOnIree, CapturesTheMlpOnTheCpuDriver) {
  const CompiledModel m = compile_model(tools_, testing::kSource / "examples" / "iree" / "mlp_block_f16.mlir",
                                        parse_target("cpu:host"), out_ / "cpu");
  std::vector<std::string> inputs;
  const std::vector<std::vector<std::int64_t>> shapes = {{512, 1024}, {1024, 4096}, {4096}, {4096, 1024}, {1024}};
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    NpyArray a;
    a.type = ElementType::F16;
    a.shape = shapes[i];
    a.data.resize(a.element_count() * 2);
    verify::initialize(a.data, ElementType::F16, verify::Init::random(-1.0, 1.0, 7 + i));
    inputs.push_back((out_ / ("in" + std::to_string(i) + ".npy")).string());
    write_npy(inputs.back(), a);
  }
  HalProfileRequest q;
  q.benchmark_module = tools_.benchmark_module.string();
  q.profile_tool = tools_.profile.string();
  q.device = "local-task";
  q.module = m.vmfb.string();
  q.function = "mlp";
  q.inputs = inputs;
  q.output = (out_ / "mlp.ireeprof").string();
  q.runs = 2;
  const HalProfile p = capture_hal_profile(q);
  ASSERT_TRUE(p.ok()) << p.error;
  EXPECT_EQ(p.mode, "host-execution");
  ASSERT_EQ(p.dispatches.size(), m.dispatches.size());
  for (const DumpedDispatch& d : m.dispatches) {
    const HalDispatchTime* t = find_dispatch(p, d.name);
    ASSERT_NE(t, nullptr) << d.name;
    EXPECT_DOUBLE_EQ(t->calls_per_run, 1.0) << d.name;
    EXPECT_GT(t->median_s, 0) << d.name;
  }

  q.device = "nodriver";
  const HalProfile none = capture_hal_profile(q);
  EXPECT_FALSE(none.ok());
  EXPECT_NE(none.error.find("iree-benchmark-module"), std::string::npos) << none.error;
}

}  // namespace
}  // namespace ktune::iree
