import Foundation
import WorkbookCore

extension WorkbookEnvironment {
    /// This process's environment, read once, the first time it is asked (the CLI asks at its top):
    /// the one place the tool reads its own variables. Child processes still get the whole
    /// environment (``ChildProcess``).
    package static let process = WorkbookEnvironment(ProcessInfo.processInfo.environment)
}
