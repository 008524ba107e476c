using System.Globalization;
using BLite.Cli.Arguments;
using BLite.Cli.Database;
using BLite.Cli.Output;

namespace BLite.Cli.Commands;

/// <summary>
/// Page and size figures for the database, and document counts and sizes per collection. Reads
/// every document (sizes) and runs the consistency checker (free pages), so it takes time on a
/// large database.
/// </summary>
internal sealed class StatsCommand : Command
{
    public override string Name => "stats";

    public override string Summary => "Show page counts, free pages, sizes, and documents per collection.";

    public override string Details =>
        """
        Reads every page and every document, so it takes as long as 'check' on a large database.
        Sizes of documents are their stored (C-BSON) sizes.
        """;

    public override int Execute(ParsedArguments arguments, CommandContext context)
    {
        var path = arguments.Positional(0)!;
        using var database = DatabaseFiles.OpenForReading(path);
        var report = database.Verify();
        var storage = database.Storage;
        var summary = new TableWriter("database", storage.Path);
        summary.AddRow("page size", $"{storage.PageSize} bytes");
        summary.AddRow("pages", $"{report.PageCount} ({report.FreePageCount} free)");
        summary.AddRow("file size", InfoCommand.Bytes(DatabaseFiles.LengthOrZero(storage.Path)));
        summary.AddRow("wal size", InfoCommand.Bytes(storage.GetStatistics().WalFileBytes));
        summary.AddRow("consistency", report.IsValid ? "ok" : $"{report.Issues.Count} problem(s); run 'blite check'");
        summary.WriteTo(context.Output);
        context.Output.WriteLine();

        var collections = new TableWriter("collection", "documents", "data bytes", "average", "largest", "indexes");
        using var read = database.BeginRead();
        foreach (var name in database.GetCollectionNames(read))
        {
            var documents = database.GetRawCollection(name);
            long count = 0;
            long bytes = 0;
            long largest = 0;
            var cursor = documents.Scan(read);
            while (cursor.MoveNext())
            {
                count++;
                bytes += cursor.Document.Length;
                largest = Math.Max(largest, cursor.Document.Length);
            }

            collections.AddRow(
                name,
                Number(count),
                Number(bytes),
                count == 0 ? "-" : Number(bytes / count),
                Number(largest),
                Number(documents.GetIndexes(read).Count + 1));
        }

        collections.WriteTo(context.Output);
        return ExitCodes.Ok;
    }

    private static string Number(long value) => value.ToString("N0", CultureInfo.InvariantCulture);
}
