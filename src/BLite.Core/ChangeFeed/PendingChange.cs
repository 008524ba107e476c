namespace BLite.Core.ChangeFeed;

/// <summary>A change made by the open transaction, journaled when it commits.</summary>
internal sealed record PendingChange(ChangeOperation Operation, string Collection, byte[] Id, byte[]? After, byte[]? Before);
