# Homebrew formula for mockd, in a tap's layout: copy this file to Formula/mockd.rb of a
# repository named homebrew-mockd, then
#   brew tap OWNER/mockd https://github.com/OWNER/homebrew-mockd
#   brew install mockd
# It builds from source with the Swift toolchain of Xcode (or the Command Line Tools) against
# Homebrew's libmicrohttpd. Written and checked with `ruby -c` on Linux; not yet run by brew.
class Mockd < Formula
  desc "Local mock HTTP server for app development, answering from JSON files"
  homepage "https://github.com/OWNER/mockd"
  url "https://github.com/OWNER/mockd.git", tag: "v0.1.0"
  license "MIT"
  head "https://github.com/OWNER/mockd.git", branch: "main"

  depends_on "pkg-config" => :build
  depends_on xcode: ["26.0", :build]
  depends_on "libmicrohttpd"
  depends_on "wslay"
  depends_on macos: :sequoia

  def install
    system "swift", "build", "--disable-sandbox", "-c", "release", "--product", "mockd"
    bin.install ".build/release/mockd"
  end

  test do
    (testpath/"MockData/mock_api_users_get.json").write '[{"id":1}]'
    port = free_port
    pid = spawn bin/"mockd", "--root", testpath/"MockData", "--port", port.to_s
    begin
      answer = nil
      50.times do
        answer = `curl -s http://127.0.0.1:#{port}/api/users`
        break if $CHILD_STATUS.success?

        sleep 0.2
      end
      assert_equal '[{"id":1}]', answer
      assert_match "libmicrohttpd", shell_output("#{bin}/mockd --version")
    ensure
      Process.kill("TERM", pid)
      Process.wait(pid)
    end
  end
end
