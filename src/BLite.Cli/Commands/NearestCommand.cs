using BLite.Bson;
using BLite.Cli.Arguments;
using BLite.Cli.Database;
using BLite.Cli.Output;
using BLite.Core;
using BLite.Core.Vectors;

namespace BLite.Cli.Commands;

/// <summary>
/// <c>find --near</c>: a nearest-neighbour search (docs/vector.md, "JSON"). The positional filter,
/// when given, restricts the candidates like the search's own "filter" member; giving both is an
/// error, as are --sort and --skip (results come in distance order).
/// </summary>
internal static class NearestCommand
{
    public static int Execute(FindCommand find, ParsedArguments arguments, CommandContext context, string near)
    {
        if (arguments.Value("sort") is not null || arguments.Value("skip") is not null || arguments.Value("limit") is not null)
        {
            throw new UsageException("--near returns the k nearest in distance order; --sort, --skip and --limit do not apply (set k).", find.Name);
        }

        VectorQuery query;
        try
        {
            query = VectorSearchJson.Parse(near);
        }
        catch (BLiteException exception)
        {
            throw new UsageException("bad --near: " + exception.Message, find.Name);
        }

        if (arguments.Positional(2) is { } filterText)
        {
            if (query.Filter is not null)
            {
                throw new UsageException("give the filter either as the positional argument or as --near's \"filter\", not both.", find.Name);
            }

            query = query with { Filter = find.ParseFilter(filterText) };
        }

        var collectionName = arguments.Positional(1)!;
        var mode = arguments.Flag("canonical") ? BsonJsonMode.Canonical : BsonJsonMode.Relaxed;
        using var database = DatabaseFiles.OpenExisting(arguments.Positional(0)!);
        DatabaseFiles.EnsureCollectionExists(database, collectionName);
        using var read = database.BeginRead();
        var collection = database.GetRawCollection(collectionName);
        if (arguments.Flag("explain"))
        {
            context.Output.WriteLine(VectorSearch.Plan(collection, read, query).Explain());
            return ExitCodes.Ok;
        }

        using var output = JsonLinesWriter.ToStandardOutput(context);
        foreach (var result in VectorSearch.Execute(collection, read, query))
        {
            var document = BsonDocument.FromBytes(result.Document.Span, database.Fields);
            document["_distance"] = (double)result.Distance;
            output.Write(document, mode);
        }

        return ExitCodes.Ok;
    }
}
