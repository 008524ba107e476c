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
