namespace BLite.Generators.ExecutionTests.Models;

public readonly record struct TicketId(Guid Value);

/// <summary>A document whose id type BLite does not store natively: the mapper goes through an IdConverter.</summary>
public sealed class Ticket
{
    public TicketId Id { get; set; }

    public string Title { get; set; } = "";
}

public sealed record BadgeCode(string Value);

public sealed class Badge
{
    public BadgeCode Id { get; set; } = null!;

    public int Level { get; set; }
}

public partial class ConvertedIdContext : DocumentDbContext
{
    public DocumentCollection<TicketId, Ticket> Tickets { get; set; } = null!;

    public DocumentCollection<BadgeCode, Badge> Badges { get; set; } = null!;
}
