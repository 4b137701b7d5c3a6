extension Theme {
    /// Copies the theme's files into `target` (an empty folder), as new files, never through a link: for
    /// `waterfall init --theme`. Links inside the theme are not copied.
    func copy(into target: FolderHandle) throws(FileSystemError) {
        for entry in FolderWalker(recursive: true, links: links(followingAll: false)).files(under: folder) {
            guard case .file(let path) = entry else { continue }
            let relative = String(path.dropFirst(folder.count + 1))
            let parent = FolderPath.parent(of: relative)
            let destination = parent == relative || parent.isEmpty || parent == "." ? target : try target.folder(path: parent, create: true)
            try destination.copy(try OpenFile.open(path, followLinks: false), as: FolderPath.lastComponent(of: relative))
        }
    }
}
