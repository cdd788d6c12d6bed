// Placeholder until scripts/embed-dashboard.sh generates this file from Dashboard/.
public enum DashboardAssets {
    public static let indexHTML = #"<!doctype html><title>mockd</title><link rel="stylesheet" href="dashboard.css"><script src="dashboard.js"></script>"#
    public static let css = "body { font-family: sans-serif; }\n"
    public static let javascript = "\"use strict\";\n"
}
