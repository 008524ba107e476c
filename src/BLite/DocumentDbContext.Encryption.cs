using BLite.Core;
using BLite.Core.Storage;

namespace BLite;

public abstract partial class DocumentDbContext
{
    /// <summary>
    /// Encrypts or decrypts the database file (see <see cref="DatabaseFacade.Rekey"/>): closes the
    /// engine, rewrites the file through the library's copy, verify and replace, and reopens it
    /// under the encryption the file now has, with the same field dictionary so every mapper of
    /// this context stays valid. Typed and schemaless collection handles move to the reopened
    /// engine on their next call.
    /// </summary>
    internal void RewriteEncryption(BLiteEncryption? encryption, RewriteSteps? steps)
    {
        var database = Engine;
        var storage = database.Storage;
        if (storage.Options.Durability == Durability.InMemory || _openedOnCallerEngine)
        {
            throw new BLiteException("Encrypting or decrypting rewrites the database file: it needs a context opened on a file path.");
        }

        if (storage.WriteFailure is { } failure)
        {
            throw new BLiteException($"Database '{storage.Path}' refuses writes ({failure.Message}); reopen it before encrypting or decrypting it.");
        }

        if (storage.Options.ReadOnly)
        {
            throw new BLiteException($"Database '{storage.Path}' was opened read-only; it cannot be encrypted or decrypted.");
        }

        var path = storage.Path;
        var before = storage.Options;
        var after = before.WithEncryption(encryption);
        var replaced = false;
        database.Dispose();
        try
        {
            DocumentDatabase.Rewrite(path, "rekey", "rekey", () => DocumentDatabase.Reopen(path, before, FieldDictionary), encryption, steps, () => replaced = true);
        }
        catch (Exception exception)
        {
            ReopenAfterRewrite(path, replaced ? after : before, exception);
            throw;
        }

        ReopenAfterRewrite(path, after, null);
    }

    private void ReopenAfterRewrite(string path, StorageOptions options, Exception? rewriteFailure)
    {
        try
        {
            _database = DocumentDatabase.Reopen(path, options, FieldDictionary);
        }
        catch (Exception exception) when (exception is BLiteException or IOException or UnauthorizedAccessException)
        {
            var what = rewriteFailure is null
                ? $"Database '{path}' was rewritten, but reopening it failed ({exception.Message})"
                : $"Rewriting database '{path}' failed ({rewriteFailure.Message}), and reopening it failed too ({exception.Message})";
            throw new BLiteException($"{what}; this context is closed: dispose it and open the database again.", exception);
        }
    }
}
