namespace BLite.Core.ChangeFeed;

/// <summary>Whether a collection's changes go to the change journal, and with which images. Stored in its catalog record.</summary>
[Flags]
internal enum ChangeFeedMode : byte
{
    Off = 0,

    /// <summary>Every insert, update and delete is journaled with the document after the change.</summary>
    On = 1,

    /// <summary>With <see cref="On"/>: updates and deletes also carry the document before the change.</summary>
    BeforeImages = 2,
}

internal static class ChangeFeedModes
{
    /// <summary>
    /// Refuses a mode the catalog could not read back (before images without the feed, unknown
    /// flags) when it is declared, rather than at the next open as a corrupt catalog.
    /// </summary>
    public static ChangeFeedMode Checked(ChangeFeedMode mode, string parameterName)
    {
        if (mode != ChangeFeedMode.Off && !IsStorable(mode))
        {
            throw new ArgumentOutOfRangeException(parameterName, mode, $"Change feed mode {mode} is not valid: before images are kept only with the feed on (On | BeforeImages).");
        }

        return mode;
    }

    /// <summary>Whether a catalog record may hold <paramref name="mode"/> for a collection with a feed: On, with or without before images.</summary>
    public static bool IsStorable(ChangeFeedMode mode) =>
        (mode & ~(ChangeFeedMode.On | ChangeFeedMode.BeforeImages)) == 0 && (mode & ChangeFeedMode.On) != 0;
}
