using BLite.Cli.Arguments;
using BLite.Cli.Database;

namespace BLite.Cli.Commands;

/// <summary>Lists collection names, one per line, so the output pipes into other commands.</summary>
internal sealed class CollectionsCommand : Command
{
    public override string Name => "collections";

    public override string Summary => "List the collections, one name per line.";

    public override int Execute(ParsedArguments arguments, CommandContext context)
    {
        using var database = DatabaseFiles.OpenForReading(arguments.Positional(0)!);
        foreach (var name in database.GetCollectionNames())
        {
            context.Output.WriteLine(name);
        }

        return ExitCodes.Ok;
    }
}
