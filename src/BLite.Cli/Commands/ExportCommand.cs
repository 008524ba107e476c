using BLite.Bson;
using BLite.Bson.Interop;
using BLite.Cli.Arguments;
using BLite.Cli.Database;
using BLite.Cli.Output;
using BLite.Cli.Transfer;
using BLite.Core.Collections;

namespace BLite.Cli.Commands;

/// <summary>Writes a collection as JSON lines or as a standard BSON dump (mongorestore-compatible).</summary>
internal sealed class ExportCommand : Command
{
    public override string Name => "export";

    public override string Summary => "Export a collection as JSON lines or standard BSON (mongodump format).";

    public override IReadOnlyList<ArgumentSpec> Arguments =>
        [DatabaseArgument, new ArgumentSpec("collection", "The collection to export.")];

    public override IReadOnlyList<OptionSpec> Options =>
    [
        new OptionSpec("output", "file", "Write to this file instead of standard output ('-' is standard output)."),
        new OptionSpec("format", "jsonl|bson", TransferFormats.OptionDescription),
        new OptionSpec("relaxed", null, "JSON lines in relaxed Extended JSON (more readable; an Int64 that fits in 32 bits reads back as Int32). Default: canonical, which round-trips every type."),
    ];

    public override string Details =>
        """
        A .bson export is real BSON with field names, documents back to back, as mongodump writes
        one collection: 'mongorestore --collection orders --db shop orders.bson' and bsondump read
        it. BLite types that standard BSON lacks are converted (docs/cli.md, "Standard BSON
        mapping"): DateTime to UTC milliseconds, DateTimeOffset to its UTC instant, DateOnly to
        midnight UTC, TimeSpan/TimeOnly to int64 ticks, large UInt64 to Decimal128.

        Examples:
          blite export shop.blite orders --output orders.jsonl
          blite export shop.blite orders --output orders.bson
        """;

    public override int Execute(ParsedArguments arguments, CommandContext context)
    {
        var collectionName = arguments.Positional(1)!;
        var outputPath = arguments.Value("output") is { } given && given != "-" ? given : null;
        var format = TransferFormats.Resolve(arguments.Value("format"), outputPath, Name);
        if (format == TransferFormat.Bson && arguments.Flag("relaxed"))
        {
            throw new UsageException("--relaxed applies to JSON lines only.", Name);
        }

        var mode = arguments.Flag("relaxed") ? BsonJsonMode.Relaxed : BsonJsonMode.Canonical;
        using var database = DatabaseFiles.OpenForReading(arguments.Positional(0)!);
        DatabaseFiles.EnsureCollectionExists(database, collectionName);
        using var read = database.BeginRead();
        var documents = database.GetRawCollection(collectionName);

        long exported;
        if (outputPath is null)
        {
            context.Output.Flush();
            using var stdout = context.OpenStandardOutput();
            Export(documents, read, database.Fields, stdout, format, mode, context);
            return ExitCodes.Ok;
        }

        try
        {
            using (var file = new FileStream(outputPath, FileMode.Create, FileAccess.Write, FileShare.None, 1 << 16))
            {
                exported = Export(documents, read, database.Fields, file, format, mode, context);
            }
        }
        catch
        {
            // A half-written export would look like a complete one; leave nothing behind instead.
            File.Delete(outputPath);
            throw;
        }

        context.Output.WriteLine($"exported {exported} document(s) from '{collectionName}' to {outputPath}");
        return ExitCodes.Ok;
    }

    internal static long Export(RawCollection documents, Core.Storage.IPageReader read, BsonFieldDictionary fields,
        Stream output, TransferFormat format, BsonJsonMode mode, CommandContext context)
    {
        using var progress = ProgressBar.Start(context, "exporting", documents.Count(read), "documents");
        using var jsonLines = format == TransferFormat.JsonLines ? new JsonLinesWriter(output, leaveOpen: true) : null;
        using var bson = format == TransferFormat.Bson ? new BufferedStream(output, 1 << 16) : null;
        var cursor = documents.Scan(read);
        long count = 0;
        while (cursor.MoveNext())
        {
            var document = BsonDocument.FromBytes(cursor.Document.Span, fields);
            if (jsonLines is not null)
            {
                jsonLines.Write(document, mode);
            }
            else
            {
                StandardBsonWriter.WriteTo(document, bson!);
            }

            progress.Report(++count);
        }

        return count;
    }
}
