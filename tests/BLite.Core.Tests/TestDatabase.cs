using BLite.Core.Storage;

namespace BLite.Core.Tests;

/// <summary>
/// A database in its own temporary directory. Dispose runs the consistency checker on the open
/// engine (failing the test if it finds anything), closes it and deletes the directory.
/// </summary>
internal sealed class TestDatabase : IDisposable
{
    public TestDatabase(StorageOptions? options = null, string name = "test.blite")
    {
        Directory = System.IO.Path.Combine(System.IO.Path.GetTempPath(), "blite-tests", Guid.NewGuid().ToString("N"));
        System.IO.Directory.CreateDirectory(Directory);
        Path = System.IO.Path.Combine(Directory, name);
        Options = options ?? new StorageOptions();
        Engine = StorageEngine.Open(Path, Options);
    }

    public string Directory { get; }

    public string Path { get; }

    public string WalPath => StorageEngine.WalPathFor(Path);

    public StorageOptions Options { get; }

    public StorageEngine Engine { get; private set; }

    /// <summary>Verifies, closes (with the final checkpoint) and opens the database again.</summary>
    public StorageEngine Reopen(StorageOptions? options = null)
    {
        if (!Engine.IsClosed)
        {
            Engine.Verify().ThrowIfInvalid();
            Engine.Dispose();
        }

        Engine = StorageEngine.Open(Path, options ?? Options);
        return Engine;
    }

    /// <summary>Closes the files as a killed process would (no checkpoint) and opens the database again.</summary>
    public StorageEngine CrashAndReopen(StorageOptions? options = null)
    {
        Engine.CloseWithoutCheckpoint();
        Engine = StorageEngine.Open(Path, options ?? Options);
        return Engine;
    }

    public void Dispose()
    {
        try
        {
            if (!Engine.IsClosed)
            {
                Engine.Verify().ThrowIfInvalid();
                Engine.Dispose();
            }
        }
        finally
        {
            Engine.CloseWithoutCheckpoint();
            System.IO.Directory.Delete(Directory, recursive: true);
        }
    }
}
