#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value behind a pthread mutex, shared between threads (the chain cache's, and the
/// `entitlements` tool's counters of lines claimed and answered).
///
/// `Synchronization.Mutex` and `Atomic` would say the same, but on Apple platforms they need
/// macOS 15 / iOS 18, below this package's floor; a pthread mutex works on every platform
/// Swift runs on. The state is only ever touched inside ``withLock(_:)``, which is what makes
/// the `@unchecked Sendable` true.
///
/// ```swift
/// let count = Locked(0)
/// count.withLock { $0 += 1 }
/// ```
package final class Locked<State: Sendable>: @unchecked Sendable {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private var state: State

  package init(_ state: State) {
    self.state = state
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// Runs `body` with the state, holding the lock.
  package func withLock<Result>(_ body: (inout State) -> Result) -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return body(&state)
  }
}
