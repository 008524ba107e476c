using BLite.Cli.Arguments;
using BLite.Cli.Database;
using BLite.Cli.Output;
using BLite.Core.Storage;

namespace BLite.Cli.Commands;

/// <summary>Writes a consistent, verified copy of a database while its application keeps writing.</summary>
internal sealed class BackupCommand : Command
{
    // A read-only view is invalidated when the application checkpoints under it; a fresh try
    // starts from a new snapshot.
    private const int Attempts = 3;

    public override string Name => "backup";

    public override string Summary => "Write a consistent, verified copy of a database (with its change journal) while it is in use.";

    public override IReadOnlyList<ArgumentSpec> Arguments =>
        [DatabaseArgument, new ArgumentSpec("destination", "Path of the new backup file; it must not exist.")];

    public override string Details =>
        """
        The copy is a snapshot as of one commit, taken without stopping the application that
        has the database open: it is read read-only. It is written under DESTINATION.partial-backup,
        flushed, reopened and verified, and only then renamed to DESTINATION, so an interrupted
        backup never leaves a file that looks complete. The backup is compact, passes
        'blite check', and carries the change journal: a watcher can resume against it from a
        token taken before the backup's point.

        Example:
          blite backup shop.blite /backups/shop-2026-11-24.blite
        """;

    public override int Execute(ParsedArguments arguments, CommandContext context)
    {
        var path = Path.GetFullPath(arguments.Positional(0)!);
        var destination = Path.GetFullPath(arguments.Positional(1)!);
        DatabaseFiles.EnsureExists(path);
        for (var attempt = 1; ; attempt++)
        {
            try
            {
                long copied;
                using (var database = DatabaseFiles.OpenForReading(path))
                using (var progress = ProgressBar.Start(context, "backing up", 0, "documents"))
                {
                    copied = database.BackupTo(destination, (done, total) =>
                    {
                        progress.SetTotal(total);
                        progress.Report(done);
                    }, CancellationToken.None);
                }

                context.Output.WriteLine($"backed up '{path}' to '{destination}': {copied:N0} documents, {InfoCommand.Bytes(new FileInfo(destination).Length)}");
                return ExitCodes.Ok;
            }
            catch (SharedSnapshotChangedException) when (attempt < Attempts)
            {
                context.Error.WriteLine("the database was checkpointed during the backup; starting again from a new snapshot");
            }
        }
    }
}
