import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a range of an open file into a digest without reading its holes: the file system says
/// where data starts and ends (`lseek` with `SEEK_DATA` and `SEEK_HOLE`), and a hole is hashed as
/// the zeros it reads as, in one step. The simulated downloads are sparse files of hundreds of
/// megabytes; reading their holes made the kernel zero and copy two megabytes per file at every
/// outcome. Where the file system cannot tell (the call fails), the range is read as it is.
struct SparseReader {
  let fd: Int32

  #if canImport(Darwin)
    static let seekData = SEEK_DATA
    static let seekHole = SEEK_HOLE
  #else
    // Linux's values; Glibc leaves them to `_GNU_SOURCE`, which Swift does not import.
    static let seekData: Int32 = 3
    static let seekHole: Int32 = 4
  #endif

  /// How much is read at a time from a region with data.
  static let chunk = 256 << 10

  /// Hashes the bytes of `range` (which ends at or before the end of the file) as read.
  func hash(_ range: Range<Int64>, into hash: inout FNV1a) {
    var offset = range.lowerBound
    while offset < range.upperBound {
      let data = lseek(fd, off_t(offset), Self.seekData)
      if data < 0 && errno == ENXIO {
        // No data after `offset`: the rest of the range is a hole.
        hash.addZeros(Int(range.upperBound - offset))
        return
      }
      if data > off_t(offset) {
        let holeEnd = min(Int64(data), range.upperBound)
        hash.addZeros(Int(holeEnd - offset))
        offset = holeEnd
        continue
      }
      // At data (or the file system cannot say): read up to the next hole.
      let hole = data < 0 ? -1 : lseek(fd, off_t(offset), Self.seekHole)
      let stop = hole > off_t(offset) ? min(Int64(hole), range.upperBound) : range.upperBound
      guard read(from: offset, to: stop, into: &hash) else { return }
      offset = stop
    }
  }

  /// Hashes `from..<to` read with `pread`; false when the file ended or failed first.
  private func read(from start: Int64, to stop: Int64, into hash: inout FNV1a) -> Bool {
    var buffer = [UInt8](repeating: 0, count: Int(min(stop - start, Int64(Self.chunk))))
    var offset = start
    while offset < stop {
      let wanted = Int(min(stop - offset, Int64(buffer.count)))
      let got = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, wanted, off_t(offset)) }
      guard got > 0 else { return false }
      buffer.withUnsafeBytes { hash.add(raw: UnsafeRawBufferPointer(rebasing: $0[..<got])) }
      offset += Int64(got)
    }
    return true
  }
}
