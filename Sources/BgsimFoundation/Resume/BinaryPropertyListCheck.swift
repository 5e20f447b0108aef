import Foundation

/// Reads a binary property list's object table before Foundation parses it. Resume data comes
/// from the app, possibly damaged, and swift-corelibs-foundation traps (a bad pointer
/// dereference while bridging) on some damaged binary property lists: a set, or a dictionary
/// key that is a collection. Resume data never holds either, so such data is refused first.
enum BinaryPropertyListCheck {
  /// False for a binary property list whose table is broken or that holds a set or a
  /// dictionary key that is not a string. Anything else (an XML property list, or data that is
  /// no property list at all) is left to Foundation's parser, which does not trap on it.
  static func isSafeToParse(_ data: Data) -> Bool {
    let bytes = [UInt8](data)
    guard bytes.count >= 8, bytes[0..<6].elementsEqual("bplist".utf8) else { return true }
    return Table(bytes)?.isSafe ?? false
  }

  /// The trailer's fields and the offset table: where each object starts.
  private struct Table {
    let bytes: [UInt8]
    let referenceSize: Int
    let offsets: [Int]

    init?(_ bytes: [UInt8]) {
      let trailerSize = 32
      guard bytes.count >= 8 + trailerSize else { return nil }
      let trailer = bytes.count - trailerSize
      let offsetSize = Int(bytes[trailer + 6])
      referenceSize = Int(bytes[trailer + 7])
      guard (1...8).contains(offsetSize), (1...8).contains(referenceSize),
        let count = Self.integer(bytes, at: trailer + 8, size: 8),
        let top = Self.integer(bytes, at: trailer + 16, size: 8),
        let tableStart = Self.integer(bytes, at: trailer + 24, size: 8),
        count > 0, count <= bytes.count, top < count, tableStart >= 8, tableStart <= trailer,
        (trailer - tableStart) / offsetSize >= count
      else { return nil }
      var offsets: [Int] = []
      offsets.reserveCapacity(count)
      for index in 0..<count {
        guard let offset = Self.integer(bytes, at: tableStart + index * offsetSize, size: offsetSize),
          offset >= 8, offset < tableStart
        else { return nil }
        offsets.append(offset)
      }
      self.bytes = bytes
      self.offsets = offsets
    }

    var isSafe: Bool {
      for offset in offsets {
        let marker = bytes[offset]
        switch marker >> 4 {
        case 0xC: return false  // a set
        case 0xD:
          // A dictionary: its key references, then as many value references.
          guard let (count, start) = collectionCount(at: offset),
            let keys = references(count: count, at: start),
            references(count: count, at: start + count * referenceSize) != nil,
            keys.allSatisfy({ isString(object: $0) })
          else { return false }
        case 0xA:
          guard let (count, start) = collectionCount(at: offset), references(count: count, at: start) != nil
          else { return false }
        default: continue
        }
      }
      return true
    }

    /// A string object: ASCII (0x5_) or UTF-16 (0x6_).
    private func isString(object: Int) -> Bool {
      let kind = bytes[offsets[object]] >> 4
      return kind == 0x5 || kind == 0x6
    }

    /// A collection's element count and where its references start: the marker's low four bits,
    /// or an integer object after the marker when they are all set.
    private func collectionCount(at offset: Int) -> (Int, Int)? {
      let low = Int(bytes[offset] & 0x0F)
      guard low == 0x0F else { return (low, offset + 1) }
      guard offset + 1 < bytes.count, bytes[offset + 1] >> 4 == 0x1 else { return nil }
      let size = 1 << Int(bytes[offset + 1] & 0x0F)
      guard size <= 8, let count = Self.integer(bytes, at: offset + 2, size: size), count <= bytes.count
      else {
        return nil
      }
      return (count, offset + 2 + size)
    }

    /// `count` object references at `start`, each naming an object of the table.
    private func references(count: Int, at start: Int) -> [Int]? {
      guard count <= bytes.count else { return nil }
      var found: [Int] = []
      found.reserveCapacity(count)
      for index in 0..<count {
        guard let reference = Self.integer(bytes, at: start + index * referenceSize, size: referenceSize),
          reference < offsets.count
        else { return nil }
        found.append(reference)
      }
      return found
    }

    /// A big-endian unsigned integer of `size` bytes at `offset`, nil past the end or when it
    /// does not fit in an `Int`.
    private static func integer(_ bytes: [UInt8], at offset: Int, size: Int) -> Int? {
      guard offset >= 0, size > 0, offset <= bytes.count - size else { return nil }
      var value: UInt64 = 0
      for byte in bytes[offset..<offset + size] { value = value << 8 | UInt64(byte) }
      return value <= UInt64(Int.max) ? Int(value) : nil
    }
  }
}
