using BLite.Cli.Arguments;
using BLite.Cli.Database;
using BLite.Cli.Output;

namespace BLite.Cli.Commands;

/// <summary>Lists each collection's indexes: the primary key on _id, then the secondary indexes with their field paths.</summary>
internal sealed class IndexesCommand : Command
{
    public override string Name => "indexes";

    public override string Summary => "List the indexes of every collection (or of one).";

    public override IReadOnlyList<ArgumentSpec> Arguments =>
        [DatabaseArgument, new ArgumentSpec("collection", "Only this collection's indexes.", Optional: true)];

    public override int Execute(ParsedArguments arguments, CommandContext context)
    {
        using var database = DatabaseFiles.OpenForReading(arguments.Positional(0)!);
        using var read = database.BeginRead();
        IReadOnlyList<string> names;
        if (arguments.Positional(1) is { } only)
        {
            DatabaseFiles.EnsureCollectionExists(database, only);
            names = [only];
        }
        else
        {
            names = database.GetCollectionNames(read);
        }

        var table = new TableWriter("collection", "index", "fields", "unique");
        foreach (var name in names)
        {
            table.AddRow(name, "_id", "_id", "yes (primary key)");
            foreach (var index in database.GetCollection(name).GetIndexes(read))
            {
                table.AddRow(name, index.Name, string.Join(", ", index.FieldPaths), index.Unique ? "yes" : "no");
            }
        }

        table.WriteTo(context.Output);
        return ExitCodes.Ok;
    }
}
