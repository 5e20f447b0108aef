import SimKernel

extension Engine {
  /// Takes a task off whatever it is doing (its link, or connecting), its bytes so far counted;
  /// its connection stays held (the caller frees it, through the admission pass, when it should).
  func detach(_ task: SimURLSessionTask) {
    settleBytes(task)
    switch tasks[task].machine.detached() {
    case .takeOffLink(let up): tasks[task].bytes.flowLeft(remaining: links.remove(task.uid, up: up, now: now))
    case .notOnLink: break
    }
  }
}
