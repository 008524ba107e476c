namespace BLite.Samples.QuickStart;

/// <summary>
/// A guided tour of BLite in one run: create a database, write in a transaction, query through
/// indexes and scans, update, delete, use a schemaless collection, reopen and read back.
/// Pass a folder as the first argument to keep the database afterwards (then try the blite CLI on it).
/// </summary>
internal static class Program
{
    private static int Main(string[] args)
    {
        var keep = args.Length > 0;
        var folder = keep ? Path.GetFullPath(args[0]) : Path.Combine(Path.GetTempPath(), "blite-quickstart-" + Guid.NewGuid().ToString("N")[..8]);
        Directory.CreateDirectory(folder);
        var path = Path.Combine(folder, "shop.blite");
        if (File.Exists(path))
        {
            // A kept folder from an earlier run: start over so the tour prints the same story.
            Console.WriteLine($"Removing the database of an earlier run: {path}");
            File.Delete(path);
            File.Delete(path + "-wal");
        }

        try
        {
            Tour.Run(path);
        }
        finally
        {
            if (!keep)
            {
                Directory.Delete(folder, recursive: true);
            }
        }

        Console.WriteLine();
        Console.WriteLine(keep ? $"Kept {path}. Try: blite info {path}" : "Done. The temporary folder was removed.");
        return 0;
    }
}
