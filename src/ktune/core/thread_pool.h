#pragma once
// A small fixed-size pool of threads. The tuner uses it to compile candidates ahead of
// measurement, so a task is usually a compiler run of seconds: simplicity over throughput.

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace ktune {

class ThreadPool {
 public:
  // threads == 0 means std::thread::hardware_concurrency() (at least 1).
  explicit ThreadPool(std::size_t threads = 0);
  // Same as shutdown(): queued tasks still run, then the threads are joined.
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  // Queues a task. Its result, or the exception it threw, arrives through the future.
  // Throws std::runtime_error after shutdown() has begun.
  template <typename F>
  auto submit(F&& task) -> std::future<std::invoke_result_t<std::decay_t<F>>> {
    using R = std::invoke_result_t<std::decay_t<F>>;
    // std::function needs a copyable target; packaged_task is move-only, so share it.
    auto packaged = std::make_shared<std::packaged_task<R()>>(std::forward<F>(task));
    std::future<R> result = packaged->get_future();
    enqueue([packaged] { (*packaged)(); });
    return result;
  }

  // Drops every task that has not started; their futures report std::future_error
  // (broken_promise). Running tasks finish normally. Returns how many were dropped.
  std::size_t cancel_pending();

  // Stops accepting tasks, runs what is queued, joins the threads. Idempotent.
  void shutdown();

  std::size_t size() const { return threads_.size(); }
  std::size_t pending() const;

 private:
  void enqueue(std::function<void()> job);
  void work();

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> queue_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace ktune
