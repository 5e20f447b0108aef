import Foundation

/// The keyed-archive form of resume data (`ResumeDataEncoding.keyedArchive`): the resume
/// dictionary archived with `NSKeyedArchiver` under the root key a device uses, and read back
/// without any path by which swift-corelibs-foundation could trap on bad input.
enum ResumeDataArchive {
  /// The root key devices write (the string itself, not `NSKeyedArchiveRootObjectKey`'s value
  /// `"root"`, which `archivedData(withRootObject:)` uses; both are read).
  static let rootKey = "NSKeyedArchiveRootObjectKey"

  /// The archive of `dictionary`, whose values are property-list types (strings, integers, data).
  static func archive(_ dictionary: [String: Any]) -> Data {
    let root = NSMutableDictionary()
    // Sorted, so the same record always gives the same bytes.
    for key in dictionary.keys.sorted() {
      switch dictionary[key] {
      case let value as String: root[NSString(string: key)] = NSString(string: value)
      case let value as Data: root[NSString(string: key)] = NSData(data: value)
      case let value as Int: root[NSString(string: key)] = NSNumber(value: value)
      case let value as Int64: root[NSString(string: key)] = NSNumber(value: value)
      default: continue
      }
    }
    let archiver = NSKeyedArchiver(requiringSecureCoding: true)
    archiver.encode(root, forKey: rootKey)
    archiver.finishEncoding()
    return archiver.encodedData
  }

  /// True for a parsed property list that says it is a keyed archive.
  static func isKeyedArchive(_ plist: [String: Any]) -> Bool {
    plist["$archiver"] as? String == "NSKeyedArchiver" && plist["$top"] is [String: Any]
      && plist["$objects"] is [Any]
  }

  /// The resume dictionary in a keyed archive (`plist` is `data` parsed as a property list),
  /// nil when it holds none.
  ///
  /// On Linux the bridge reads the archive's object table itself: swift-corelibs-foundation's
  /// `NSKeyedUnarchiver` dereferences bad pointers on archives whose bytes were damaged (a
  /// crash, whatever the decoding-failure policy), and resume data is input the bridge must
  /// survive. On Darwin, `NSKeyedUnarchiver` with secure coding and the decoding-failure
  /// policy set to return an error checks the archive instead.
  static func unarchive(_ data: Data, plist: [String: Any]) -> [String: Any]? {
    #if canImport(Darwin)
      guard let unarchiver = try? NSKeyedUnarchiver(forReadingFrom: data) else { return nil }
      unarchiver.decodingFailurePolicy = .setErrorAndReturn
      defer { unarchiver.finishDecoding() }
      let classes: [AnyClass] = [NSDictionary.self, NSString.self, NSNumber.self, NSData.self]
      let found =
        unarchiver.decodeObject(of: classes, forKey: rootKey)
        ?? unarchiver.decodeObject(of: classes, forKey: NSKeyedArchiveRootObjectKey)
      guard let root = found as? NSDictionary, unarchiver.error == nil else { return nil }
      var dictionary: [String: Any] = [:]
      for (key, value) in root {
        guard let key = key as? String else { return nil }
        dictionary[key] = plain(value)
      }
      return dictionary
    #else
      return ArchiveObjects(plist)?.rootDictionary()
    #endif
  }

  /// An archived value as the property-list value `PropertyListSerialization` would give
  /// (integers as `Int64`, so `ResumeDataFormat.integer` reads them on every platform).
  static func plain(_ value: Any) -> Any {
    switch value {
    case let number as NSNumber:
      let whole = number.int64Value
      return number.doubleValue == Double(whole) ? whole : number.doubleValue
    case let string as NSString: return string.description
    case let data as NSData: return Data(referencing: data)
    default: return value
    }
  }
}

#if !canImport(Darwin)
  /// A keyed archive's object table, read without `NSKeyedUnarchiver`: the root object must be a
  /// dictionary whose keys are strings and whose values are strings, data or numbers, and every
  /// reference is checked against the table.
  struct ArchiveObjects {
    let objects: [Any]
    let top: [String: Any]

    init?(_ plist: [String: Any]) {
      guard let objects = plist["$objects"] as? [Any], let top = plist["$top"] as? [String: Any] else {
        return nil
      }
      self.objects = objects
      self.top = top
    }

    func rootDictionary() -> [String: Any]? {
      guard
        let rootIndex = Self.reference(top[ResumeDataArchive.rootKey] ?? top[NSKeyedArchiveRootObjectKey]),
        let root = object(rootIndex) as? [String: Any],
        let classDescription = object(Self.reference(root["$class"])) as? [String: Any],
        let className = classDescription["$classname"] as? String,
        className == "NSDictionary" || className == "NSMutableDictionary",
        let keys = root["NS.keys"] as? [Any], let values = root["NS.objects"] as? [Any],
        keys.count == values.count
      else { return nil }
      var dictionary: [String: Any] = [:]
      for (key, value) in zip(keys, values) {
        guard let name = object(Self.reference(key)) as? String, let value = object(Self.reference(value))
        else {
          return nil
        }
        switch value {
        case is String, is Data, is NSNumber, is Int, is Int64:
          dictionary[name] = ResumeDataArchive.plain(value)
        default: continue  // an archived object (a class the bridge does not read): the key stays out
        }
      }
      return dictionary
    }

    /// The table entry at `index`, nil when out of range or the archive's null.
    private func object(_ index: Int?) -> Any? {
      guard let index, index > 0, index < objects.count else { return nil }
      return objects[index]
    }

    /// The number a reference (a property list UID) holds. swift-corelibs-foundation gives UIDs as
    /// its own class, whose number is its stored `value`.
    static func reference(_ value: Any?) -> Int? {
      guard let value, String(describing: type(of: value)).contains("KeyedArchiverUID") else { return nil }
      for child in Mirror(reflecting: value).children where child.label == "value" {
        if let number = child.value as? UInt32 { return Int(number) }
        if let number = child.value as? Int { return number }
      }
      return nil
    }
  }
#endif
