using BLite.Bson;
using BLite.Cli.Arguments;
using BLite.Cli.Database;
using BLite.Cli.Output;
using BLite.Cli.Queries;
using BLite.Core;
using BLite.Core.Collections;
using BLite.Core.Query;

namespace BLite.Cli.Commands;

/// <summary>
/// Prints the documents of a collection that match a MongoDB-style JSON filter, one Extended JSON
/// document per line. The query is planned over the collection's indexes and the filter is
/// evaluated on the stored bytes, so non-matching documents are never decoded.
/// </summary>
internal sealed class FindCommand : Command
{
    public override string Name => "find";

    public override string Summary => "Print the documents matching a JSON filter, one per line.";

    public override IReadOnlyList<ArgumentSpec> Arguments =>
    [
        DatabaseArgument,
        new ArgumentSpec("collection", "The collection to search."),
        new ArgumentSpec("filter", "A MongoDB-style JSON filter, e.g. '{\"status\":\"shipped\",\"total\":{\"$gt\":100}}'. Default: {} (every document).", Optional: true),
    ];

    public override IReadOnlyList<OptionSpec> Options =>
    [
        new OptionSpec("limit", "n", "Print at most n documents."),
        new OptionSpec("skip", "n", "Skip the first n matching documents."),
        new OptionSpec("sort", "fields", "Sort by field paths, comma-separated; '-field' sorts descending (e.g. --sort -total,customer.name)."),
        new OptionSpec("canonical", null, "Print canonical Extended JSON (keeps every type exactly) instead of relaxed."),
        new OptionSpec("explain", null, "Print the query plan (index, bounds, residual filter, sort) instead of the documents."),
        new OptionSpec("near", "json", "Nearest-neighbour search through a vector index: '{\"path\":\"embedding\",\"vector\":[...],\"k\":10,\"ef\":64}'. Prints the k nearest matching documents, nearest first, each with a _distance field."),
    ];

    public override string Details =>
        """
        Filter operators: $eq $ne $gt $gte $lt $lte $in $nin $exists $not $elemMatch $startsWith
        $endsWith $contains, combined with $and $or $nor; values are Extended JSON ({"$oid": ...},
        {"$date": ...}, {"$numberDecimal": ...}). The query is planned over the collection's indexes
        (--explain shows how); without --sort, documents come in the order of the index used (_id
        order for a full scan).

        Examples:
          blite find shop.blite orders '{"status":"shipped"}' --limit 10
          blite find shop.blite orders '{"total":{"$gte":100}}' --sort -total
          blite find shop.blite orders '{"status":"shipped"}' --explain
          blite find notes.blite notes '{"folder":"work"}' --near '{"path":"embedding","vector":[0.1,0.7,0.2],"k":5}'
        """;

    public override int Execute(ParsedArguments arguments, CommandContext context)
    {
        if (arguments.Value("near") is { } near)
        {
            return NearestCommand.Execute(this, arguments, context, near);
        }

        var filter = ParseFilter(arguments.Positional(2) ?? "{}");
        var sort = ParseSort(arguments.Value("sort"));
        var limit = arguments.NonNegativeInteger("limit", long.MaxValue);
        var skip = arguments.NonNegativeInteger("skip", 0);
        var mode = arguments.Flag("canonical") ? BsonJsonMode.Canonical : BsonJsonMode.Relaxed;
        var collectionName = arguments.Positional(1)!;

        using var database = DatabaseFiles.OpenForReading(arguments.Positional(0)!);
        DatabaseFiles.EnsureCollectionExists(database, collectionName);
        using var read = database.BeginRead();
        var collection = database.GetRawCollection(collectionName);
        var query = new DocumentQuery(filter, sort,
            skip == 0 ? null : FilterOperand.FromConstant(skip),
            limit == long.MaxValue ? null : FilterOperand.FromConstant(limit));
        if (arguments.Flag("explain"))
        {
            context.Output.WriteLine(PlanExecutor.Explain(collection, read, query));
            return ExitCodes.Ok;
        }

        using var output = JsonLinesWriter.ToStandardOutput(context);
        foreach (var document in PlanExecutor.Execute(collection, read, query))
        {
            output.Write(BsonDocument.FromBytes(document.Span, database.Fields), mode);
        }

        return ExitCodes.Ok;
    }

    internal QueryFilter ParseFilter(string text)
    {
        try
        {
            return QueryText.ParseFilter(text);
        }
        catch (ArgumentException exception)
        {
            throw new UsageException(exception.Message, Name);
        }
    }

    private List<SortKey> ParseSort(string? text)
    {
        try
        {
            return QueryText.ParseSort(text);
        }
        catch (ArgumentException exception)
        {
            throw new UsageException(exception.Message, Name);
        }
    }
}
