#include "ktune/core/thread_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <set>
#include <string>

namespace ktune {
namespace {

using namespace std::chrono_literals;

TEST(ThreadPool, DefaultSizeIsHardwareConcurrency) {
  ThreadPool pool;
  EXPECT_EQ(pool.size(), std::max(1u, std::thread::hardware_concurrency()));
  ThreadPool three(3);
  EXPECT_EQ(three.size(), 3u);
}

TEST(ThreadPool, ReturnsResultsOfEveryTask) {
  ThreadPool pool(4);
  std::vector<std::future<int>> results;
  for (int i = 0; i < 200; ++i) results.push_back(pool.submit([i] { return i * i; }));
  for (int i = 0; i < 200; ++i) EXPECT_EQ(results[static_cast<std::size_t>(i)].get(), i * i);
}

TEST(ThreadPool, VoidAndMoveOnlyResults) {
  ThreadPool pool(2);
  std::atomic<int> count{0};
  auto done = pool.submit([&] { ++count; });
  done.get();
  EXPECT_EQ(count.load(), 1);
  auto ptr = pool.submit([] { return std::make_unique<std::string>("moved"); });
  EXPECT_EQ(*ptr.get(), "moved");
}

TEST(ThreadPool, ExceptionsTravelThroughTheFuture) {
  ThreadPool pool(2);
  auto failing = pool.submit([]() -> int { throw std::invalid_argument("bad config"); });
  EXPECT_THROW(failing.get(), std::invalid_argument);
  // The worker thread survived the exception.
  EXPECT_EQ(pool.submit([] { return 7; }).get(), 7);
}

TEST(ThreadPool, RunsTasksConcurrently) {
  ThreadPool pool(2);
  std::atomic<int> arrived{0};
  // Each task waits for the other: only completes if both run at the same time.
  auto meet = [&] {
    ++arrived;
    auto deadline = std::chrono::steady_clock::now() + 10s;
    while (arrived.load() < 2 && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(1ms);
    return arrived.load() >= 2;
  };
  auto a = pool.submit(meet);
  auto b = pool.submit(meet);
  EXPECT_TRUE(a.get());
  EXPECT_TRUE(b.get());
}

TEST(ThreadPool, ShutdownRunsQueuedTasksThenRejectsNewOnes) {
  std::atomic<int> ran{0};
  std::vector<std::future<void>> futures;
  ThreadPool pool(1);
  for (int i = 0; i < 20; ++i)
    futures.push_back(pool.submit([&] {
      std::this_thread::sleep_for(1ms);
      ++ran;
    }));
  pool.shutdown();
  EXPECT_EQ(ran.load(), 20);
  for (auto& f : futures) EXPECT_NO_THROW(f.get());
  EXPECT_THROW(pool.submit([] {}), std::runtime_error);
  pool.shutdown();  // idempotent
}

TEST(ThreadPool, DestructorFinishesQueuedTasks) {
  std::atomic<int> ran{0};
  {
    ThreadPool pool(2);
    for (int i = 0; i < 10; ++i) pool.submit([&] { ++ran; });
  }
  EXPECT_EQ(ran.load(), 10);
}

TEST(ThreadPool, CancelPendingBreaksPromisesOfQueuedTasks) {
  ThreadPool pool(1);
  std::promise<void> release;
  std::shared_future<void> gate = release.get_future().share();
  std::atomic<bool> blocker_started{false};
  auto blocker = pool.submit([&, gate] {
    blocker_started = true;
    gate.wait();
    return 1;
  });
  while (!blocker_started) std::this_thread::sleep_for(1ms);
  std::vector<std::future<int>> queued;
  for (int i = 0; i < 5; ++i) queued.push_back(pool.submit([] { return 2; }));
  EXPECT_EQ(pool.pending(), 5u);
  EXPECT_EQ(pool.cancel_pending(), 5u);
  EXPECT_EQ(pool.pending(), 0u);
  release.set_value();
  EXPECT_EQ(blocker.get(), 1);
  for (auto& f : queued) {
    try {
      f.get();
      ADD_FAILURE() << "a cancelled task produced a value";
    } catch (const std::future_error& e) {
      EXPECT_EQ(e.code(), std::future_errc::broken_promise);
    }
  }
}

}  // namespace
}  // namespace ktune
