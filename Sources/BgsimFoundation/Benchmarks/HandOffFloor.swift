import Dispatch
import Foundation

/// The floor under the bridge's cost per delegate call: the time one thread takes to hand work
/// to another and be woken, measured as a semaphore ping-pong between two threads in the same
/// run as the bridge's figures (so a loaded machine slows both alike). A delegate call is at
/// least one such hand-off to the delegate queue's thread and one back.
public enum HandOffFloor {
  /// Seconds per hand-off (one signal and the other thread's wake-up), the median of `rounds`
  /// ping-pongs of `handOffs` hand-offs each.
  public static func measure(handOffs: Int = 20_000, rounds: Int = 3) -> Double {
    var samples: [Double] = []
    for _ in 0..<max(rounds, 1) { samples.append(pingPong(rounds: max(handOffs / 2, 1))) }
    samples.sort()
    return samples[samples.count / 2]
  }

  /// One ping-pong: `rounds` round trips, each two hand-offs.
  private static func pingPong(rounds: Int) -> Double {
    let ping = DispatchSemaphore(value: 0)
    let pong = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    let partner = Thread {
      for _ in 0..<rounds {
        ping.wait()
        pong.signal()
      }
      done.signal()
    }
    partner.start()
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<rounds {
      ping.signal()
      pong.wait()
    }
    let elapsed = DispatchTime.now().uptimeNanoseconds - start
    done.wait()
    return Double(elapsed) / 1e9 / Double(rounds * 2)
  }
}
