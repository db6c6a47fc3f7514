namespace IfiDashboard.Shared.Validation;

/// <summary>An exception whose message is written for the person who pressed the button; pages show it as it is.</summary>
public interface IMessageForPeople;
