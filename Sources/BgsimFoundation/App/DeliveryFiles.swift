import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The files `didFinishDownloadingTo` hands the app: a fresh path per call, in the container's
/// delivery folder, holding a sparse file of the download's size.
///
/// Each file is a hard link to an inode of a small pool the bridge keeps beside the container.
/// An app moves the file into its container and usually deletes it later (or overwrites it with
/// the next download); the inode then has only the pool's link left and is reused for a later
/// delivery, emptied and resized. So a run creates and deletes a handful of inodes instead of
/// one per download: on file systems that scan recently freed inodes at every creation (ext4
/// without a journal) thousands of create/delete pairs cost seconds (`bgsim bench bridge`).
///
/// What an app can notice: the file's link count is 2 while it holds it, and an app that deletes
/// a delivered file but keeps it open may see it emptied by a later delivery (on a device the
/// open file keeps its content). Where hard links fail (a file system without them) every
/// delivery gets a new file, as before.
///
/// Both folders are held open and every call names files relative to them (`linkat`, `openat`,
/// `fstatat`, `unlinkat`): the kernel then walks one name instead of the container's whole path,
/// at each of the five or so calls a delivery makes. The first pool inodes are held open too, so
/// a reused one is emptied and resized through its descriptor (`ftruncate`, `futimens`) with no
/// `openat` and `close`. A delivery folder the app deleted (an app clearing its caches) is made
/// again.
final class DeliveryFiles: @unchecked Sendable {
  let directory: URL
  private let directoryPath: String
  private let poolPath: String
  /// The delivery folder and the pool, open while they are in use (-1 when not open).
  private var directoryDescriptor: Int32 = -1
  private var poolDescriptor: Int32 = -1
  private var foldersMade = false
  private var poolWorks = true
  /// Pool inodes, oldest first; the first few are checked for reuse at each delivery.
  private var pool: [Int] = []
  /// Where the next reuse check starts in `pool`, which is a ring: moving an inode "to the back"
  /// is advancing this index, so a pool that grows (an app that keeps every file) costs no
  /// shifting of the array per delivery.
  private var poolStart = 0
  private var poolCount = 0
  private static let reuseChecks = 4
  /// Descriptors of the first `openInodes` pool inodes (index: the inode's number in the pool),
  /// kept open for writing: a delivery then empties and resizes its inode through the
  /// descriptor, without an `openat` that walks the delivered name and a `close`. Past that
  /// many (an app that keeps its files) inodes are opened by name, as before.
  private var inodeDescriptors: [Int32] = []
  private static let openInodes = 8
  /// A pool inode already sized for a delivery expected next (`prepare`): only the pool links
  /// to it, so nothing the app can see has changed yet.
  private var prepared: (inode: Int, size: Int64)?
  /// The pool inode of the latest delivery, which `prepare` leaves alone while the app's call
  /// for it runs: a file the app copied away and deleted must keep its access time until the
  /// call's end (`departure`).
  private var delivering: Int?
  /// The URL of the delivery expected next, built while the app runs the call before it
  /// (`prepareURL`): parsing a path into a `URL` is the largest part of making a delivered file
  /// (about 10,000 instructions), and the simulation waits for it between calls.
  private var preparedURL: (name: String, url: URL)?

  /// A delivered file: its URL for the app, and its name in the delivery folder for the bridge.
  struct File {
    let url: URL
    let name: String
    /// The pool inode linked at `name`, nil where hard links fail.
    let poolInode: Int?
  }

  init(container: URL) {
    directory = container.appendingPathComponent("Library/Caches/com.apple.nsurlsessiond/Downloads")
    directoryPath = directory.path
    // A sibling of the container: on its file system (hard links need that), outside the app's view.
    poolPath = container.path + ".deliveries"
  }

  /// Makes the `number`th delivered file: `size` bytes that take no disk space, access time at
  /// the epoch so that `wasTaken(_:)` can tell whether the app read it.
  func make(number: Int, size: Int64) -> File {
    let name = Self.fileName(number)
    delivering = nil
    if let ready = prepared, ready.size == size, directoryDescriptor >= 0 {
      prepared = nil
      if linkat(poolDescriptor, String(ready.inode), directoryDescriptor, name, 0) == 0 {
        return delivered(name, inode: ready.inode)
      }
      // The delivery folder is gone, or the name taken: the usual path below, which may reuse it.
    }
    var inode: Int?
    var reused: stat?
    if directoryDescriptor < 0 || !placeInode(named: name, placed: &inode, reused: &reused) {
      // The first delivery, or the app deleted the folder: make it (again) and retry once.
      openFolders()
      _ = placeInode(named: name, placed: &inode, reused: &reused)
    }
    // Empties the pool inode and resizes it (or writes the file itself when linking failed).
    if let inode {
      sizeUnread(inode, to: size, current: reused)
    } else {
      AppContainer.writeSparseFile(in: directoryDescriptor, at: name, size: size, unread: true)
    }
    return delivered(name, inode: poolWorks ? inode : nil)
  }

  /// The delivered file `name`, linked to the pool inode `inode` (nil where hard links fail),
  /// which `prepare` leaves alone from now on until the next delivery.
  private func delivered(_ name: String, inode: Int?) -> File {
    delivering = inode
    let ready = preparedURL
    preparedURL = nil
    let url = ready?.name == name ? ready?.url : nil
    return File(url: url ?? fileURL(name), name: name, poolInode: inode)
  }

  /// The name of the `number`th delivered file, as nsurlsessiond names them.
  private static func fileName(_ number: Int) -> String { "CFNetworkDownload_\(number).tmp" }

  /// Built from the folder's path: `appendingPathComponent` costs several times more per call.
  private func fileURL(_ name: String) -> URL {
    URL(filePath: directoryPath + "/" + name, directoryHint: .notDirectory)
  }

  /// Builds the URL of the `number`th delivery ahead of it, on the simulation's thread while the
  /// app runs a call (as `prepare`); `make` uses it when that delivery is the next one. Nothing
  /// on disk changes.
  func prepareURL(number: Int) {
    let name = Self.fileName(number)
    if preparedURL?.name != name { preparedURL = (name, fileURL(name)) }
  }

  /// Sizes a pool inode for a delivery of `size` bytes expected next, so that `make` then only
  /// links it: called while the app runs the delegate call before that delivery, on the
  /// simulation's thread, it takes the resizing (a slow system call on some file systems) out of
  /// the time the simulation waits between calls. It touches only the pool, outside the
  /// container: an inode only the pool links to, sized and unread as `make` would leave it.
  /// Which inode it picks may depend on what the app deleted so far, which changes no file the
  /// app can see. A prepared inode `make` does not use (the next delivery did not come, or has
  /// another size) stays in the pool for reuse.
  func prepare(size: Int64) {
    guard poolWorks, poolDescriptor >= 0, directoryDescriptor >= 0 else { return }
    if let ready = prepared {
      if ready.size != size { sizeUnread(ready.inode, to: size, current: nil) }
      prepared = (ready.inode, size)
      return
    }
    let found = reusableInode()
    guard let inode = found?.inode ?? newInode() else { return }
    sizeUnread(inode, to: size, current: found?.info)
    prepared = (inode, size)
  }

  /// Leaves the pool inode `inode` empty, `size` bytes long and unread, by its descriptor when
  /// it is held open, else by its name in the pool. `current` is its state when known: an inode
  /// nobody wrote into or read (no data blocks, access time still at the epoch: the usual case,
  /// an app that moved the file and deleted it later) only needs its size, two system calls
  /// fewer a download.
  private func sizeUnread(_ inode: Int, to size: Int64, current: stat?) {
    if inode < inodeDescriptors.count {
      let descriptor = inodeDescriptors[inode]
      if let info = current, info.st_blocks == 0, Self.accessSeconds(info) == 0 {
        if Int64(info.st_size) != size { _ = ftruncate(descriptor, off_t(clamping: size)) }
        return
      }
      if ftruncate(descriptor, 0) == 0 {
        return AppContainer.resizeSparseFile(descriptor, size: size, unread: true)
      }
    }
    // Past the held descriptors, or one that could not be emptied: by its name.
    AppContainer.writeSparseFile(in: poolDescriptor, at: String(inode), size: size, unread: true)
  }

  /// Links a pool inode at `name`. False when the delivery folder is gone.
  /// `reused` is the inode's state when it was a reused one.
  private func placeInode(named name: String, placed: inout Int?, reused: inout stat?) -> Bool {
    reused = nil
    let found = reusableInode()
    if let found { reused = found.info }
    guard poolWorks, let inode = found?.inode ?? newInode() else { return true }
    let linked = linkat(poolDescriptor, String(inode), directoryDescriptor, name, 0) == 0
    if linked { placed = inode }
    if linked || errno == EEXIST { return true }
    if errno == ENOENT { return false }
    // Hard links are refused here: every delivery gets a file of its own from now on.
    poolWorks = false
    return true
  }

  /// Creates the delivery folder and the pool if missing, and opens both.
  private func openFolders() {
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    foldersMade = true
    if poolWorks && !(mkdir(poolPath, 0o700) == 0 || errno == EEXIST) { poolWorks = false }
    // Assigned only when the number changes (from none): the delegate queue may be reading it.
    let folder = Self.openFolder(directoryPath, replacing: directoryDescriptor)
    if folder != directoryDescriptor { directoryDescriptor = folder }
    if poolWorks { poolDescriptor = Self.openFolder(poolPath, replacing: poolDescriptor) }
    if poolDescriptor < 0 { poolWorks = false }
  }

  /// Opens a folder. One already open under `descriptor` is replaced under the same number
  /// (`dup2`), never closed: a delivery the delegate queue still answers (`wasTaken`, `remove`)
  /// may use it meanwhile, and must not meet a closed number, or one reused for another file.
  private static func openFolder(_ path: String, replacing descriptor: Int32) -> Int32 {
    let fresh = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { return fresh }
    guard fresh >= 0 else { return descriptor }
    _ = dup2(fresh, descriptor)
    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)  // `dup2` clears it
    _ = close(fresh)
    return descriptor
  }

  /// A pool inode only the pool still links to (the app let go of it), moved to the back, with
  /// its state.
  private func reusableInode() -> (inode: Int, info: stat)? {
    guard !pool.isEmpty else { return nil }
    for step in 0..<min(pool.count, Self.reuseChecks) {
      let index = (poolStart + step) % pool.count
      var info = stat()
      guard pool[index] != delivering, fstatat(poolDescriptor, String(pool[index]), &info, 0) == 0 else {
        continue
      }
      if info.st_nlink == 1 {
        // To the back of the ring: swapped to the front slot, which the start then passes.
        let inode = pool[index]
        // Taken for another delivery: no longer the prepared one.
        if prepared?.inode == inode { prepared = nil }
        pool.swapAt(index, poolStart)
        poolStart = (poolStart + 1) % pool.count
        return (inode, info)
      }
    }
    // Inodes the app keeps go to the back, so the next check looks at others.
    if pool.count > Self.reuseChecks { poolStart = (poolStart + 1) % pool.count }
    return nil
  }

  /// A new, empty pool inode.
  private func newInode() -> Int? {
    let inode = poolCount
    let fd = openat(poolDescriptor, String(inode), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else {
      poolWorks = false
      return nil
    }
    if inode < Self.openInodes && inode == inodeDescriptors.count {
      inodeDescriptors.append(fd)
    } else {
      _ = close(fd)
    }
    poolCount += 1
    pool.append(inode)
    return inode
  }

  /// What became of a delivered file when the call returned.
  enum Fate {
    /// Moved away or deleted: nothing is left to remove.
    case gone
    /// Still in place, and read (its access time moved off the epoch).
    case readInPlace
    /// Still in place, never read.
    case untouched

    /// Gone or read in place: either counts as taking the file.
    var isTaken: Bool { self != .untouched }
  }

  /// One `fstatat`. Relies on the file system updating access times (Linux's default `relatime`
  /// does; on a volume mounted `noatime` a file read in place counts as untouched).
  func fate(_ file: File) -> Fate {
    var info = stat()
    guard fstatat(directoryDescriptor, file.name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return .gone }
    return Self.accessSeconds(info) != 0 ? .readInPlace : .untouched
  }

  /// The access time's seconds (0 for a file made unread and not read since).
  private static func accessSeconds(_ info: stat) -> Int {
    #if canImport(Darwin)
      return Int(info.st_atimespec.tv_sec)
    #else
      return Int(info.st_atim.tv_sec)
    #endif
  }

  /// Where a delivered file the app took away went.
  enum Departure {
    /// Renamed: the app keeps a link to it on this file system (a move within the container
    /// always is one), this inode.
    case renamed(FileIdentity)
    /// Read and let go of, with no link to it left: a copy of it, `size` bytes, is somewhere (a
    /// move to another file system is a copy and a delete).
    case copied(size: Int64)
  }

  /// What became of a delivered file that is gone from its place (`fate` was `.gone`), from its
  /// pool inode: nil when the app deleted it unread, or when hard links fail here.
  func departure(_ file: File) -> Departure? {
    guard let inode = file.poolInode else { return nil }
    var info = stat()
    guard fstatat(poolDescriptor, String(inode), &info, 0) == 0 else { return nil }
    if info.st_nlink >= 2 { return .renamed(FileIdentity(info)) }
    return Self.accessSeconds(info) != 0 ? .copied(size: Int64(info.st_size)) : nil
  }

  /// Deletes a delivered file if it is still there (a missing file is no error).
  func remove(_ file: File) { _ = unlinkat(directoryDescriptor, file.name, 0) }

  /// The pool goes with the simulation (the bridge's host), even when the container is kept:
  /// the app's own links to its inodes stay, with their content.
  deinit {
    if directoryDescriptor >= 0 { _ = close(directoryDescriptor) }
    if poolDescriptor >= 0 { _ = close(poolDescriptor) }
    for descriptor in inodeDescriptors { _ = close(descriptor) }
    guard foldersMade else { return }
    try? FileManager.default.removeItem(atPath: poolPath)
  }
}
