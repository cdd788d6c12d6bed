// Not in a build without wslay (Package.swift).
#if !MOCKD_NO_WEBSOCKET
    import Dispatch

    /// The dispatch sources that tell one side of a WebSocket (the app's, or a relay's upstream)
    /// when its socket can be read or written, on that side's serial queue: no thread waits.
    /// Used only on that queue. Sources are cancelled before the socket may be closed, so
    /// `cancel(then:)` calls its closure once every source's cancel handler has run.
    final class SocketWatch {
        private let fd: Int32
        private let queue: DispatchQueue
        private var readSource: (any DispatchSourceRead)?
        private var writeSource: (any DispatchSourceWrite)?
        private var readSuspended = false
        private var writeSuspended = false
        private var cancelsLeft = 0
        private var released: (() -> Void)?

        init(fd: Int32, queue: DispatchQueue) {
            self.fd = fd
            self.queue = queue
        }

        /// Calls `readable` whenever the socket has something to read.
        func startReading(_ readable: @escaping () -> Void) {
            let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
            source.setEventHandler(handler: readable)
            source.setCancelHandler { [self] in sourceCancelled() }
            readSource = source
            cancelsLeft += 1
            source.resume()
        }

        /// Stops reading (a stalled connection) until the watch is cancelled.
        func pauseReading() {
            guard let readSource, !readSuspended else { return }
            readSource.suspend()
            readSuspended = true
        }

        /// Calls `writable` whenever the socket takes more, until `writeIdle`.
        func wantWritable(_ writable: @escaping () -> Void) {
            if let writeSource {
                if writeSuspended {
                    writeSuspended = false
                    writeSource.resume()
                }
                return
            }
            let source = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: queue)
            source.setEventHandler(handler: writable)
            source.setCancelHandler { [self] in sourceCancelled() }
            writeSource = source
            cancelsLeft += 1
            source.resume()
        }

        /// Nothing waits to be written: no more write events until `wantWritable`.
        func writeIdle() {
            guard let writeSource, !writeSuspended else { return }
            writeSource.suspend()
            writeSuspended = true
        }

        /// Cancels the sources; `release` runs once none watches the socket (at once when none was made).
        func cancel(then release: @escaping () -> Void) {
            released = release
            if cancelsLeft == 0 { return finished() }
            if let readSource {
                if readSuspended { readSource.resume() }
                readSource.cancel()
            }
            if let writeSource {
                if writeSuspended { writeSource.resume() }
                writeSource.cancel()
            }
        }

        private func sourceCancelled() {
            cancelsLeft -= 1
            if cancelsLeft == 0 { finished() }
        }

        private func finished() {
            readSource = nil
            writeSource = nil
            let release = released
            released = nil
            release?()
        }
    }
#endif
