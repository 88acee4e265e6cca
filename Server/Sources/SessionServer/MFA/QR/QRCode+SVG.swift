extension QRCode {
    /// The code as SVG markup: one path of dark squares on white, with the
    /// standard's four-module quiet zone, `scale` pixels a module.
    ///
    /// No `#` anywhere: Supabase clients put the markup in a
    /// `data:image/svg+xml;utf-8,` URI unescaped, where a `#` would end it.
    func svg(scale: Int = 4) -> String {
        let quiet = 4
        let side = size + quiet * 2
        var path = ""
        for y in 0..<size {
            for x in 0..<size where modules[y][x] { path += "M\(x + quiet) \(y + quiet)h1v1h-1z" }
        }
        let pixels = side * scale
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(pixels)\" height=\"\(pixels)\" "
            + "viewBox=\"0 0 \(side) \(side)\" shape-rendering=\"crispEdges\">"
            + "<rect width=\"\(side)\" height=\"\(side)\" fill=\"white\"/>"
            + "<path d=\"\(path)\" fill=\"black\"/></svg>"
    }
}
