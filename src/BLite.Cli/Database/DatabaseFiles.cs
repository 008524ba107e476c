using BLite.Cli.Commands;
using BLite.Core.Collections;
using BLite.Core.Storage;
using BLite.Core;

namespace BLite.Cli.Database;

/// <summary>
/// Opens databases for commands. The engine creates a database when its file is missing or
/// empty; only <c>import</c> may do that, so every other command checks first and names the
/// problem instead of leaving a new empty database behind. Commands that only look open the
/// database read-only: no lock, no recovery written back, no checkpoint, so they work on a
/// database an application holds open and on files the user may only read.
/// </summary>
internal static class DatabaseFiles
{
    public static DocumentDatabase OpenForReading(string path)
    {
        EnsureExists(path);
        return DocumentDatabase.Open(path, new StorageOptions { ReadOnly = true, Encryption = DatabaseKeys.For(path) });
    }

    public static DocumentDatabase OpenExisting(string path, Durability durability = Durability.Full)
    {
        EnsureExists(path);
        return DocumentDatabase.Open(path, new StorageOptions { Durability = durability, Encryption = DatabaseKeys.For(path) });
    }

    public static DocumentDatabase OpenOrCreate(string path, Durability durability = Durability.Full)
    {
        if (Directory.Exists(path))
        {
            throw new CommandException($"'{path}' is a directory, not a database file.");
        }

        return DocumentDatabase.Open(path, new StorageOptions { Durability = durability, Encryption = DatabaseKeys.For(path) });
    }

    public static void EnsureExists(string path)
    {
        if (Directory.Exists(path))
        {
            throw new CommandException($"'{path}' is a directory, not a database file.");
        }

        if (!File.Exists(path))
        {
            throw new CommandException(LengthOrZero(StorageEngine.WalPathFor(path)) > 0
                ? $"database file '{path}' does not exist, but its write-ahead log does: the WAL of a database whose main file is missing. Restore the database file; nothing was changed."
                : $"database file '{path}' does not exist.");
        }

        if (new FileInfo(path).Length == 0)
        {
            throw new CommandException($"'{path}' is empty; it is not a BLite database.");
        }
    }

    /// <summary>Throws unless the collection exists, so a misspelt name is reported rather than read as empty.</summary>
    public static void EnsureCollectionExists(DocumentDatabase database, string name)
    {
        var names = database.GetCollectionNames();
        foreach (var existing in names)
        {
            if (existing == name)
            {
                return;
            }
        }

        throw new CommandException(names.Count == 0
            ? $"collection '{name}' does not exist; the database has no collections."
            : $"collection '{name}' does not exist; the database has {string.Join(", ", names)}.");
    }

    public static long LengthOrZero(string path) => File.Exists(path) ? new FileInfo(path).Length : 0;
}
