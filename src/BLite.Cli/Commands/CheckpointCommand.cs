using BLite.Cli.Arguments;
using BLite.Cli.Database;

namespace BLite.Cli.Commands;

/// <summary>Moves every committed page from the WAL into the database file and restarts the WAL.</summary>
internal sealed class CheckpointCommand : Command
{
    public override string Name => "checkpoint";

    public override string Summary => "Copy committed WAL frames into the database file and empty the WAL.";

    public override string Details =>
        """
        Opening a database applies any WAL left by a process that stopped without closing it; this
        command does that and checkpoints, leaving the database file complete on its own.
        """;

    public override int Execute(ParsedArguments arguments, CommandContext context)
    {
        var path = arguments.Positional(0)!;
        var before = DatabaseFileInspector.Inspect(path).Wal;
        using (var database = DatabaseFiles.OpenExisting(path))
        {
            database.Checkpoint();
        }

        var after = DatabaseFileInspector.Inspect(path).Wal;
        context.Output.WriteLine($"checkpoint complete: {before.Commits} pending committed transaction(s) applied; wal state: {after.Describe()}");
        return ExitCodes.Ok;
    }
}
