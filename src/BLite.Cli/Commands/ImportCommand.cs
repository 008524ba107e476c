using BLite.Bson;
using BLite.Cli.Arguments;
using BLite.Cli.Database;
using BLite.Cli.Output;
using BLite.Cli.Transfer;
using BLite.Core;
using BLite.Core.Collections;
using BLite.Core.Storage;
using BLite.Core.Transactions;

namespace BLite.Cli.Commands;

/// <summary>
/// Inserts documents from JSON lines or a standard BSON dump into a collection, creating the
/// database and collection when missing. By default the whole import is one transaction: bad
/// input leaves the database as it was.
/// </summary>
internal sealed class ImportCommand : Command
{
    public override string Name => "import";

    public override string Summary => "Import JSON lines or standard BSON (mongodump format) into a collection.";

    public override IReadOnlyList<ArgumentSpec> Arguments =>
    [
        new ArgumentSpec("database", "Path of the BLite database file; created if missing."),
        new ArgumentSpec("collection", "The collection to insert into; created if missing."),
        new ArgumentSpec("file", "The file to read, or '-' for standard input."),
    ];

    public override IReadOnlyList<OptionSpec> Options =>
    [
        new OptionSpec("format", "jsonl|bson", TransferFormats.OptionDescription),
        new OptionSpec("legacy-json", null, "Also accept the legacy {\"$date\": <milliseconds>} that Extended JSON v2 refuses (JSON lines only)."),
        new OptionSpec("upsert", null, "Replace documents whose _id already exists instead of failing."),
        new OptionSpec("batch-size", "n", "Commit every n documents (bounds memory for very large imports; a failure then keeps the batches already committed). Default: one transaction for the whole file."),
    ];

    public override string Details =>
        """
        Documents without _id get a new ObjectId. A document whose _id exists already, or that
        breaks a unique index, stops the import (use --upsert to replace by _id). With the default
        single transaction, any error leaves the database unchanged.

        Examples:
          blite import shop.blite orders orders.jsonl
          blite import shop.blite orders dump/shop/orders.bson
          blite import shop.blite events old-mongoexport.jsonl --legacy-json
        """;

    public override int Execute(ParsedArguments arguments, CommandContext context)
    {
        var collectionName = arguments.Positional(1)!;
        var inputPath = arguments.Positional(2)!;
        var fromStandardInput = inputPath == "-";
        var format = TransferFormats.Resolve(arguments.Value("format"), fromStandardInput ? null : inputPath, Name);
        var batchSize = arguments.NonNegativeInteger("batch-size", 0);
        var upsert = arguments.Flag("upsert");
        var jsonMode = arguments.Flag("legacy-json") ? BsonJsonParseMode.Legacy : BsonJsonParseMode.Standard;
        if (jsonMode == BsonJsonParseMode.Legacy && format == TransferFormat.Bson)
        {
            throw new UsageException("--legacy-json applies to JSON lines, not to BSON input.", Name);
        }

        ValidateCollectionName(collectionName);
        if (!fromStandardInput && !File.Exists(inputPath))
        {
            throw new CommandException($"input file '{inputPath}' does not exist.");
        }

        using var input = fromStandardInput ? context.OpenStandardInput() : new FileStream(inputPath, FileMode.Open, FileAccess.Read, FileShare.Read, 1 << 16);
        var inputName = fromStandardInput ? "standard input" : inputPath;
        var databasePath = arguments.Positional(0)!;
        var created = !File.Exists(databasePath);
        long imported;
        try
        {
            imported = Import(databasePath, collectionName, DocumentSource.Read(input, format, inputName, jsonMode), upsert, batchSize, input, context);
        }
        catch when (created && batchSize == 0)
        {
            // One transaction, rolled back: the database this run created holds nothing, so it is removed rather than left behind empty.
            File.Delete(databasePath);
            File.Delete(StorageEngine.WalPathFor(databasePath));
            throw;
        }

        context.Output.WriteLine($"imported {imported} document(s) into '{collectionName}'");
        return ExitCodes.Ok;
    }

    private static long Import(string databasePath, string collectionName, IEnumerable<BsonDocument> documents, bool upsert, long batchSize, Stream input, CommandContext context)
    {
        using var database = DatabaseFiles.OpenOrCreate(databasePath);
        return Import(database, collectionName, documents, upsert, batchSize, input, context);
    }

    /// <summary>Inserts (or upserts) into an open database: one transaction, or one per <paramref name="batchSize"/> documents; the studio imports through here too.</summary>
    internal static long Import(DocumentDatabase database, string collectionName, IEnumerable<BsonDocument> documents, bool upsert, long batchSize, Stream input, CommandContext context)
    {
        var collection = database.GetCollection(collectionName);
        using var progress = ProgressBar.Start(context, "importing", input.CanSeek ? input.Length : 0, "bytes");
        long imported = 0;
        long committed = 0;
        var write = database.BeginWrite();
        try
        {
            foreach (var document in documents)
            {
                Store(collection, write, document, upsert, imported + 1);
                imported++;
                if (batchSize > 0 && imported - committed == batchSize)
                {
                    write.Commit();
                    write.Dispose();
                    committed = imported;
                    write = database.BeginWrite();
                }

                progress.Report(input.CanSeek ? input.Position : imported);
            }

            write.Commit();
            return imported;
        }
        catch (CommandException exception)
        {
            var outcome = committed > 0 ? $"{committed} document(s) committed in earlier batches were kept" : "nothing was imported";
            throw new CommandException($"{exception.Message} ({outcome})", exception);
        }
        finally
        {
            write.Dispose();
        }
    }

    private static void Store(TransactionalBsonCollection collection, WriteTransaction write, BsonDocument document, bool upsert, long number)
    {
        try
        {
            if (upsert)
            {
                collection.Upsert(write, document);
            }
            else
            {
                collection.Insert(write, document);
            }
        }
        catch (Exception exception) when (exception is BLiteException or ArgumentException or InvalidOperationException)
        {
            var id = document.TryGetValue("_id", out var value) ? $" (_id {value})" : "";
            throw new CommandException($"document {number}{id}: {exception.Message}", exception);
        }
    }

    internal void ValidateCollectionName(string collectionName)
    {
        try
        {
            _ = new CollectionDefinition(collectionName);
        }
        catch (ArgumentException exception)
        {
            throw new UsageException($"bad collection name '{collectionName}': {exception.Message}", Name);
        }
    }
}
