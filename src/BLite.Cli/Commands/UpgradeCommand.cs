using BLite.Cli.Arguments;
using BLite.Cli.Database;
using BLite.Core;
using BLite.Core.Storage;

namespace BLite.Cli.Commands;

/// <summary>
/// Rewrites a database of catalog format 1 (numbers keyed by type) into the current format. The
/// old file is only iterated, never searched: its documents are read in stored order and
/// inserted into a new file, whose indexes are built with the current key encoding. The copy,
/// check and swap are compact's, so the old file stays until the new one is complete and verified.
/// </summary>
internal sealed class UpgradeCommand : Command
{
    public override string Name => "upgrade";

    public override string Summary => "Rewrite a database written by an earlier BLite (catalog format 1) into the current format.";

    public override string Details =>
        """
        Writes DATABASE.upgrade beside the database, copying every collection, index definition
        and document into the current format; checks the copy; then atomically renames it over
        the original. A leftover write-ahead log of the old database is recovered first. The
        original stays unchanged if anything fails before that rename, including two documents
        whose numbers were distinct keys before (1 and 1.0) but are one key now, in _id or in a
        unique index: the error names the collection, index and value. A database already in the
        current format is left as it is.
        """;

    public override int Execute(ParsedArguments arguments, CommandContext context)
    {
        var path = Path.GetFullPath(arguments.Positional(0)!);
        if (!NeedsUpgrade(path))
        {
            context.Output.WriteLine($"'{path}' is already in the current format; nothing was changed.");
            return ExitCodes.Ok;
        }

        Upgrade(path, context);
        context.Output.WriteLine($"upgraded '{path}' to the current format.");
        return ExitCodes.Ok;
    }

    /// <summary>Reads the catalog without writing anything, so a current database is left byte for byte as it was.</summary>
    private static bool NeedsUpgrade(string path)
    {
        DatabaseFiles.EnsureExists(path);
        using var database = DocumentDatabase.Open(path, new StorageOptions { ReadOnly = true, ReadsSeparateNumberKeys = true, Encryption = DatabaseKeys.For(path) });
        return database.Catalog.HasSeparateNumberKeys;
    }

    internal static void Upgrade(string path, CommandContext context, Action<long>? onCopied = null)
    {
        try
        {
            CompactCommand.RewriteSafely(
                path,
                "upgrade",
                "upgrade",
                "upgrading",
                () => DocumentDatabase.Open(path, new StorageOptions { ReadsSeparateNumberKeys = true, Encryption = DatabaseKeys.For(path) }),
                context,
                onCopied);
        }
        catch (BLiteUniqueConstraintException collision)
        {
            var where = collision.IndexName == BLiteUniqueConstraintException.PrimaryIndexName
                ? $"two documents of collection '{collision.CollectionName}' have _id values equal to {collision.DuplicateValue}"
                : $"unique index '{collision.IndexName}' of collection '{collision.CollectionName}' holds two values equal to {collision.DuplicateValue}";
            throw new CommandException(
                $"cannot upgrade: {where} (distinct keys before, such as 1 and 1.0, one key now). " +
                "Change or remove one of them with the BLite that wrote the database, then run upgrade again; the database is unchanged.");
        }
    }
}
